/// The page's three files, served from memory: the host is one binary with nothing to install
/// beside it.
enum PageAssets {
    /// The page as `/` serves it: with the stacks and widgets drawn (or the notice that stands
    /// in for them), and the data the script starts from as JSON it does not execute.
    static func html(_ first: FirstPaint) -> String {
        #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>widgetd</title>
        <link rel="stylesheet" href="/app.css">
        <script src="/app.js" defer></script>
        \#(first.initialElement)
        </head>
        <body>
        <header class="host-bar">
          <h1>widgetd</h1>
          <span id="clock" class="clock">\#(HTMLText.escape(first.markup.clock))</span>
          <span id="status" class="status" role="status"></span>
          <span class="spacer"></span>
          <button type="button" id="open-schedule">Schedule</button>
          <button type="button" id="open-day">The next 24 h</button>
          <button type="button" id="open-gallery" class="primary">Add Widget</button>
        </header>
        <main>
          <section id="stacks" class="stacks" aria-label="Stacks">\#(first.markup.stacks)</section>
          <section id="loose" class="loose" aria-label="Widgets in no stack">\#(first.markup.loose)</section>
          <p id="empty" class="empty"\#(first.isEmpty ? "" : " hidden")>No widgets yet. <button type="button" class="link" data-open-gallery>Add one</button>.</p>
        </main>
        <aside id="panel" class="panel" hidden>
          <header><h2 id="panel-title"></h2><button type="button" class="close" id="panel-close" aria-label="Close">✕</button></header>
          <div id="panel-body"></div>
        </aside>
        <div id="gallery" class="overlay" hidden>
          <div class="sheet gallery" role="dialog" aria-label="Widget gallery">
            <header><h2>Add Widget</h2>
              <label>to <select id="gallery-stack"></select></label>
              <button type="button" class="close" data-close aria-label="Close">✕</button></header>
            <div id="gallery-body" class="gallery-body"></div>
          </div>
        </div>
        <div id="editor" class="overlay" hidden>
          <form class="sheet editor" role="dialog" aria-label="Edit Widget" novalidate>
            <header><h2>Edit Widget</h2><button type="button" class="close" data-close aria-label="Close">✕</button></header>
            <div id="editor-preview" class="editor-preview"></div>
            <div id="editor-fields" class="fields"></div>
            <p id="editor-error" class="field-error form-error"></p>
            <footer><button type="button" data-close>Cancel</button><button type="submit" class="primary" id="editor-save">Done</button></footer>
          </form>
        </div>
        </body>
        </html>
        """#
    }
}

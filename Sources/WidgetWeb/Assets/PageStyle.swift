extension PageAssets {
    /// Widget sizes follow WidgetKit's families (points on a 390-point-wide phone).
    static let style = #"""
        :root { color-scheme: dark; --accent: #0a84ff; font-family: system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; }
        * { box-sizing: border-box; }
        body { margin: 0; min-height: 100vh; color: #f2f2f7;
               background: radial-gradient(circle at 20% 0%, #3a3d5c 0, transparent 55%), radial-gradient(circle at 90% 100%, #29453f 0, transparent 50%), #15161c; }
        button, select, input { font: inherit; }
        button { border: 0; border-radius: 999px; padding: 6px 14px; background: rgba(255,255,255,.12); color: inherit; cursor: pointer; }
        button:hover { background: rgba(255,255,255,.2); }
        button.primary { background: var(--accent); color: #fff; }
        button.link { background: none; padding: 0; color: var(--accent); text-decoration: underline; }
        .host-bar { display: flex; align-items: center; gap: 12px; padding: 14px 28px; position: sticky; top: 0; z-index: 2;
               background: rgba(21,22,28,.72); backdrop-filter: blur(18px); border-bottom: 1px solid rgba(255,255,255,.06); }
        .host-bar h1 { font-size: 20px; margin: 0; letter-spacing: .02em; }
        .clock { color: #aeaeb2; font-variant-numeric: tabular-nums; font-size: 14px; }
        .status { color: #ffd60a; font-size: 14px; }
        .spacer { flex: 1; }
        main { padding: 28px; display: flex; flex-direction: column; gap: 28px; }
        .stacks, .loose { display: flex; flex-wrap: wrap; gap: 28px; align-items: flex-start; }
        .loose:empty, .stacks:empty { display: none; }
        .empty { color: #aeaeb2; }
        .notice { margin: 0; padding: 14px 18px; border-radius: 18px; background: rgba(255,214,10,.1); color: #ffd60a; }
        .stack { background: rgba(255,255,255,.06); border: 1px solid rgba(255,255,255,.08); border-radius: 30px; padding: 14px 18px 18px; }
        .stack > header { display: flex; align-items: center; gap: 10px; margin-bottom: 12px; }
        .stack > header h2 { font-size: 15px; margin: 0 6px 0 0; text-transform: uppercase; letter-spacing: .08em; color: #d1d1d6; }
        .stack > header button { padding: 3px 10px; font-size: 13px; }
        .toggle { display: inline-flex; align-items: center; gap: 6px; font-size: 13px; color: #d1d1d6; }
        .toggle input { accent-color: #30d158; }
        .stack-row { display: flex; gap: 18px; align-items: flex-start; }
        .stack-top { display: flex; flex-direction: column; align-items: center; }
        .pager { display: flex; align-items: center; gap: 8px; margin-top: 4px; }
        .pager button { padding: 0 10px; font-size: 18px; line-height: 24px; background: none; }
        .dots { display: inline-flex; gap: 6px; }
        .dot { width: 7px; height: 7px; border-radius: 50%; background: rgba(255,255,255,.3); }
        .dot.on { background: #fff; }
        .peeks { display: flex; flex-direction: column; gap: 10px; }
        .card { position: relative; display: flex; flex-direction: column; align-items: center; }
        .face { width: 170px; height: 170px; border-radius: 24px; overflow: hidden; background: #fbfbfd; color: #1c1c1e;
                box-shadow: 0 10px 30px rgba(0,0,0,.35); }
        .card-body { width: 100%; height: 100%; }
        .family-systemMedium .face { width: 364px; }
        .family-systemLarge .face { width: 364px; height: 382px; }
        .family-systemExtraLarge .face { width: 764px; height: 382px; }
        .family-accessoryRectangular .face { width: 170px; height: 76px; border-radius: 16px; }
        .family-accessoryCircular .face { width: 76px; height: 76px; border-radius: 50%; }
        .family-accessoryInline .face { width: 364px; height: 36px; border-radius: 10px; }
        .card.peek .face { zoom: .5; cursor: pointer; }
        .card.peek .face:hover { outline: 6px solid var(--accent); }
        .card.peek .card-label { font-size: 11px; }
        .card-label { margin-top: 7px; font-size: 13px; color: #d1d1d6; }
        .card-actions { display: flex; gap: 6px; margin-top: 6px; opacity: 0; transition: opacity .15s; }
        .card:hover > .card-actions, .card:focus-within > .card-actions { opacity: 1; }
        .card-actions button { font-size: 12px; padding: 2px 9px; }
        .card.peek .card-actions { display: none; }
        .card-perform { display: flex; flex-wrap: wrap; justify-content: center; gap: 6px; margin-top: 8px; max-width: 364px; }
        .card-perform button { font-size: 12px; padding: 3px 10px; background: rgba(255,159,10,.22); }
        .card-perform button:disabled { cursor: default; opacity: .5; }
        .card.peek .card-perform, .card.peek .card-note { display: none; }
        .card-note { margin: 6px 0 0; max-width: 364px; font-size: 12px; color: #d1d1d6; text-align: center; }
        .card-note.error { color: #ff453a; }
        .card.invalidated .face { opacity: .45; filter: saturate(.3); transition: opacity .15s; }
        .placeholder { width: 170px; height: 170px; border-radius: 24px; border: 2px dashed rgba(255,255,255,.2); justify-content: center; color: #8e8e93; }
        .generic { padding: 14px 16px; font-size: 14px; height: 100%; }
        .generic-row { display: flex; justify-content: space-between; gap: 10px; padding: 3px 0; border-bottom: 1px solid #e5e5ea; }
        .generic-row:last-child { border-bottom: 0; }
        .generic dt { color: #8e8e93; }
        .generic dd { margin: 0; font-weight: 600; text-align: right; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
        .generic-value { display: flex; align-items: center; justify-content: center; font-size: 28px; font-weight: 700; text-align: center; }
        .generic-empty { display: flex; align-items: center; justify-content: center; color: #8e8e93; text-align: center; }
        .generic-more { color: #8e8e93; font-size: 12px; }
        img.simulation { width: 100%; height: auto; border: 1px solid #8884; border-radius: 6px; }
        .panel { position: fixed; top: 0; right: 0; bottom: 0; width: min(560px, 100vw); z-index: 3; overflow: auto; padding: 18px 22px;
                 background: rgba(28,28,34,.96); backdrop-filter: blur(20px); border-left: 1px solid rgba(255,255,255,.1); box-shadow: -20px 0 50px rgba(0,0,0,.4); }
        .panel > header, .sheet > header { display: flex; align-items: center; gap: 12px; margin-bottom: 12px; }
        .panel h2, .sheet h2 { font-size: 17px; margin: 0; flex: 1; }
        .close { padding: 2px 9px; }
        table { width: 100%; border-collapse: collapse; font-size: 13px; font-variant-numeric: tabular-nums; }
        th { text-align: left; color: #8e8e93; font-weight: 500; padding: 4px 6px; border-bottom: 1px solid rgba(255,255,255,.12); }
        td { padding: 5px 6px; border-bottom: 1px solid rgba(255,255,255,.06); vertical-align: top; word-break: break-word; }
        tr.current td { color: #30d158; font-weight: 600; }
        .facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 14px; font-size: 14px; }
        .facts dt { color: #8e8e93; } .facts dd { margin: 0; }
        .why { color: #d1d1d6; }
        .overlay { position: fixed; inset: 0; z-index: 4; background: rgba(0,0,0,.55); display: flex; align-items: center; justify-content: center; padding: 24px; }
        .overlay[hidden], .panel[hidden] { display: none; }
        .sheet { background: var(--sheet-background, #1f1f25); border-radius: 22px; padding: 18px 22px; max-height: 100%; overflow: auto;
                 box-shadow: 0 30px 80px rgba(0,0,0,.6); border: 1px solid rgba(255,255,255,.1); }
        .sheet button.primary { background: var(--accent, #0a84ff); }
        .gallery { width: min(980px, 100%); }
        .gallery > header label { font-size: 14px; color: #aeaeb2; }
        .gallery > header select { margin-left: 6px; background: rgba(255,255,255,.08); color: inherit; border: 1px solid rgba(255,255,255,.15);
                                   border-radius: 9px; padding: 4px 8px; }
        .gallery-kind { padding: 12px 0; border-top: 1px solid rgba(255,255,255,.08); }
        .gallery-kind h3 { margin: 0; font-size: 16px; }
        .description { color: #aeaeb2; margin: 4px 0 12px; font-size: 14px; }
        .gallery-row { display: flex; flex-wrap: wrap; gap: 20px; align-items: flex-end; }
        .gallery-item { margin: 0; display: flex; flex-direction: column; align-items: center; gap: 8px; }
        .gallery-item figcaption { display: flex; gap: 10px; align-items: center; font-size: 13px; color: #aeaeb2; }
        .editor { width: min(460px, 100%); color: #f2f2f7; }
        .editor-preview { display: flex; justify-content: center; margin-bottom: 14px; }
        .fields { display: flex; flex-direction: column; gap: 12px; }
        .field { display: grid; grid-template-columns: 1fr auto; gap: 4px 10px; align-items: center; }
        .field[hidden] { display: none; }
        .field > label { font-weight: 600; }
        .field .hint { grid-column: 1 / -1; order: 3; color: #8e8e93; font-size: 12px; }
        .field input[type=number], .field input[type=text], .field input[type=datetime-local], .field select, .entity .search {
          background: rgba(255,255,255,.08); color: inherit; border: 1px solid rgba(255,255,255,.15); border-radius: 9px; padding: 5px 8px; }
        .field input[type=checkbox] { accent-color: var(--accent, #0a84ff); width: 20px; height: 20px; }
        .entity, .choices { display: flex; flex-direction: column; gap: 6px; }
        .field-error { grid-column: 1 / -1; color: #ff453a; font-size: 13px; margin: 0; min-height: 0; }
        .field-error:empty { display: none; }
        .sheet footer { display: flex; justify-content: flex-end; gap: 10px; margin-top: 18px; }
        """#
}

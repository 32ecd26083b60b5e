extension PageAssets {
    /// The page's behaviour. It holds no state of its own beyond what it draws (and, per card, a
    /// tap under way and what its `perform` answered): every event makes it read `/api/page`
    /// again, so a missed event costs nothing.
    static let script = #"""
        'use strict';
        const state = { client: null, page: null, kinds: null, shownSent: null, reading: false, again: false, panel: null,
                        performing: new Set(), notes: {} };

        function el(tag, attributes = {}, ...children) {
          const node = document.createElement(tag);
          for (const [name, value] of Object.entries(attributes)) {
            if (value === false || value == null) continue;
            if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
            else node.setAttribute(name, value === true ? '' : value);
          }
          for (const child of children.flat()) if (child != null) node.append(child);
          return node;
        }

        async function api(method, path, body) {
          const options = { method, headers: {} };
          if (body !== undefined) { options.headers['content-type'] = 'application/json'; options.body = JSON.stringify(body); }
          const response = await fetch(path, options);
          const data = await response.json().catch(() => ({}));
          if (!response.ok) {
            const error = new Error((data.error && data.error.message) || response.statusText);
            error.rpc = data.error;
            throw error;
          }
          return data;
        }

        function say(text) { document.getElementById('status').textContent = text || ''; }
        function when(date) { return date ? date.replace('T', ' ').replace(/(\.\d+)?Z$/, ' UTC') : '–'; }

        // --- the page --------------------------------------------------------------

        async function refresh() {
          if (state.reading) { state.again = true; return; }
          state.reading = true;
          try {
            state.page = await api('GET', '/api/page');
            draw();
            say('');
          } catch (error) {
            say(error.message);
          } finally {
            state.reading = false;
            if (state.again) { state.again = false; refresh(); }
          }
        }

        // The stacks and cards are the host's markup (`markup` in /api/page; `/` arrives with it
        // drawn). The page lays over it only what it alone knows: a tap under way, dimmed at
        // once, before widgetd has it, and what `perform` answered, under the card.
        function decorate(root) {
          for (const node of root.querySelectorAll('.card[data-instance]')) {
            const id = node.dataset.instance;
            if (state.performing.has(id)) {
              node.classList.add('invalidated');
              node.setAttribute('data-invalidated', '');
              for (const button of node.querySelectorAll(':scope > .card-perform button')) button.disabled = true;
            }
            const note = state.notes[id];
            const label = node.querySelector(':scope > .card-label');
            if (note && label) label.before(el('p', { class: note.error ? 'card-note error' : 'card-note', 'data-note-for': id }, note.text));
          }
        }

        // The controls in that markup, by what they are marked as, so they work on the page as
        // served as well as redrawn. A template's own markup (in `.card-body`) is no control: a
        // tap there only swipes to a card beside a stack's top.
        function control(event) {
          const card = event.target.closest('.card[data-instance]');
          const stack = event.target.closest('[data-stack]');
          const button = event.target.closest('button[data-action], button[data-perform]');
          const id = card && card.dataset.instance;
          if (button && !button.closest('.card-body')) {
            const action = button.dataset.action;
            if (button.dataset.perform != null && card) perform(id, button.dataset.perform);
            else if (action === 'edit' && card) openEditor(id);
            else if (action === 'timeline' && card) openTimeline(id);
            else if (action === 'remove' && card) removeInstance(id);
            else if (action === 'explain' && stack) openExplain(stack.dataset.stack);
            else if (action === 'log' && stack) openLog(stack.dataset.stack);
            else if ((action === 'previous' || action === 'next') && stack) step(stack.dataset.stack, action === 'next' ? 1 : -1);
          } else if (card && stack && card.classList.contains('peek') && event.target.closest('.face')) {
            swipe(stack.dataset.stack, id);
          }
        }
        function toggled(event) {
          const stack = event.target.closest('[data-stack]');
          if (stack && event.target.dataset.action === 'smart-rotate' && !event.target.closest('.card-body')) {
            smartRotate(stack.dataset.stack, event.target.checked);
          }
        }
        function step(name, delta) {
          const stack = state.page && state.page.stacks.find((s) => s.name === name);
          const count = stack ? stack.instances.length : 0;
          if (count > 1) swipe(name, stack.instances[(stack.instances.indexOf(stack.top) + delta + count) % count]);
        }

        // `/` arrives drawn, with its data beside it: the page starts from both, as if it had
        // drawn them, and reads again once its event stream says hello.
        function adopt() {
          const initial = document.getElementById('initial');
          if (!initial) return;
          state.page = JSON.parse(initial.textContent);
          state.page.markup = { clock: document.getElementById('clock').textContent,
                                stacks: document.getElementById('stacks').innerHTML, loose: document.getElementById('loose').innerHTML };
        }

        function draw() {
          const page = state.page;
          document.getElementById('clock').textContent = page.markup.clock;
          document.getElementById('stacks').innerHTML = page.markup.stacks;
          document.getElementById('loose').innerHTML = page.markup.loose;
          decorate(document.querySelector('main'));
          document.getElementById('empty').hidden = page.stacks.length + page.loose.length > 0;
          reportShown();
          if (state.panel) state.panel.load().catch((error) => say(error.message));
        }

        // What this page shows, reported whenever it changes; nothing while the tab is hidden.
        function reportShown() {
          if (state.client == null || !state.page) return;
          const shown = document.hidden ? [] :
            [...new Set([...document.querySelectorAll('main [data-shown]')].map((node) => node.dataset.instance))].sort();
          const key = shown.join(' ');
          if (key === state.shownSent) return;
          state.shownSent = key;
          api('POST', '/api/visible', { client: state.client, instances: shown }).catch((error) => { state.shownSent = null; say(error.message); });
        }

        // --- live updates --------------------------------------------------------------

        function listen() {
          const source = new EventSource('/events');
          source.addEventListener('hello', (event) => {
            state.client = JSON.parse(event.data).client;
            state.shownSent = null;
            refresh();
          });
          for (const type of ['entryChange', 'rotation', 'stack', 'reload', 'reloadFailed', 'invalidated']) {
            source.addEventListener(type, () => refresh());
          }
          source.addEventListener('widgets', () => { state.kinds = null; refresh(); });
          source.addEventListener('daemon', (event) => {
            const news = JSON.parse(event.data);
            if (news.connected) refresh(); else say('widgetd is away: ' + (news.problem || 'reconnecting'));
          });
          source.addEventListener('error', () => {
            say('reconnecting to the web host…');
            // The browser retries a dropped stream by itself, but not one refused (503 past
            // the host's connection limit): that one is asked for again after a while.
            if (source.readyState === EventSource.CLOSED) setTimeout(listen, 5000);
          });
        }

        // --- controls --------------------------------------------------------------------

        async function act(work) {
          try { await work(); await refresh(); } catch (error) { say(error.message); }
        }
        // A button of an entry: widgetd runs the provider's `perform`, then reloads the
        // instance; its answer's dialog (or the error) shows under the card.
        async function perform(id, action) {
          state.performing.add(id);
          delete state.notes[id];
          draw();
          let note = null;
          try {
            const answer = await api('POST', `/api/instances/${id}/perform`, { action });
            const dialog = answer.result && answer.result.dialog;
            if (dialog) note = { text: String(dialog) };
          } catch (error) {
            note = { text: error.message, error: true };
          }
          state.performing.delete(id);
          if (note) state.notes[id] = note;
          await refresh();
          // A dialog is news for a moment; an error stays until the next tap.
          if (note && !note.error) setTimeout(() => { if (state.notes[id] === note) { delete state.notes[id]; if (state.page) draw(); } }, 4000);
        }
        function swipe(stack, instance) { act(() => api('POST', `/api/stacks/${encodeURIComponent(stack)}/swipe`, { instance })); }
        function smartRotate(stack, on) { act(() => api('POST', `/api/stacks/${encodeURIComponent(stack)}/smart-rotate`, { on })); }
        function removeInstance(id) {
          if (confirm(`Remove ${state.page.cards[id].displayName}?`)) act(() => api('DELETE', `/api/instances/${id}`));
        }

        // `load` fills the panel through the function it is given, which does nothing once
        // another panel has opened: a slow answer must not replace the panel opened after it.
        function openPanel(title, load) {
          document.getElementById('panel-title').textContent = title;
          const panel = {};
          panel.load = () => load((...nodes) => { if (state.panel === panel) fill(...nodes); });
          state.panel = panel;
          document.getElementById('panel').hidden = false;
          panel.load().catch((error) => say(error.message));
        }
        function fill(...nodes) { document.getElementById('panel-body').replaceChildren(...nodes.flat()); }
        function table(headings, rows) {
          return el('table', {}, el('thead', {}, el('tr', {}, headings.map((h) => el('th', {}, h)))),
            el('tbody', {}, rows.map((row) => el('tr', { class: row.className || null }, row.cells.map((c) => el('td', {}, c == null ? '–' : String(c)))))));
        }
        function nameOf(id) { return state.page && state.page.cards[id] ? `${state.page.cards[id].displayName} (${id})` : id || '–'; }
        function number(value) { return typeof value === 'number' ? value.toFixed(3) : value; }

        function openExplain(stack) {
          openPanel(`Why this top: ${stack}`, async (fill) => {
            const explained = await api('GET', `/api/stacks/${encodeURIComponent(stack)}/explain`);
            fill(el('p', { class: 'why', 'data-explain': stack }, explained.why || ''),
              table(['', 'Widget', 'Rank', 'Relevance', 'Score', 'Affinity', 'Donations', 'Eligible'],
                explained.candidates.map((c) => ({ className: c.instance === explained.top ? 'current' : null,
                  cells: [c.instance === explained.top ? '▶' : '', nameOf(c.instance), number(c.rank), number(c.relevance), c.score,
                          number(c.affinity), c.donations, c.eligible ? 'yes' : 'no'] }))));
          });
        }

        function openLog(stack) {
          openPanel(`Decisions: ${stack}`, async (fill) => {
            const decisions = await api('GET', `/api/stacks/${encodeURIComponent(stack)}/log?limit=50`);
            fill(decisions.length ? table(['Date', 'From', 'To', 'Reason'],
              decisions.slice().reverse().map((d) => ({ cells: [when(d.date), nameOf(d.from), d.to ? nameOf(d.to) : `held back (${nameOf(d.candidate)})`, d.reason] })))
              : el('p', {}, 'No rotation decisions yet.'));
          });
        }

        function openTimeline(id) {
          openPanel(`WidgetTimeline: ${nameOf(id)}`, async (fill) => {
            const [timeline, budget] = await Promise.all([api('GET', `/api/instances/${id}/timeline`), api('GET', `/api/instances/${id}/budget`)]);
            const policy = typeof timeline.policy === 'object' && timeline.policy ? `after ${when(timeline.policy.after)}` : timeline.policy || '–';
            fill(el('dl', { class: 'facts' },
                el('dt', {}, 'Policy'), el('dd', {}, policy),
                el('dt', {}, 'Next entry'), el('dd', {}, when(timeline.nextEntryChange)),
                el('dt', {}, 'Next reload'), el('dd', {}, timeline.nextReload ? `${when(timeline.nextReload.due)} (${timeline.nextReload.reason})` : '–'),
                el('dt', {}, 'Budget'), el('dd', { 'data-budget': id }, `${budget.used} of ${budget.limit} reloads in 24 h`),
                el('dt', {}, 'Next allowed'), el('dd', {}, when(budget.nextAllowed)),
                timeline.lastError ? [el('dt', {}, 'Last error'), el('dd', { class: 'field-error' }, timeline.lastError)] : null),
              table(['', 'Date', 'Content', 'Relevance'], timeline.entries.map((entry, index) => ({
                className: index === timeline.currentIndex ? 'current' : null,
                cells: [index === timeline.currentIndex ? '▶' : '', when(entry.date), JSON.stringify(entry.content),
                        entry.relevance ? `${entry.relevance.score} for ${entry.relevance.duration || 0} s` : null] }))));
          });
        }

        function openSchedule() {
          openPanel('Schedule', async (fill) => {
            const schedule = await api('GET', '/api/schedule');
            fill(schedule.length ? table(['Due', 'Widget', 'Reason', 'Note'], schedule.map((r) => ({
              cells: [when(r.due), nameOf(r.instance), r.reason, r.inFlight ? 'running' : r.deferredBy ? `deferred by ${r.deferredBy}` : ''] })))
              : el('p', {}, 'Nothing scheduled.'));
          });
        }

        // The coming day as widgetd simulates it from what it holds now: which widget is on
        // top of each stack, relevance, reloads and donations. Opens full size on a click.
        function openDay() {
          openPanel('The next 24 hours', async (fill) => {
            const src = `/simulate.svg?hours=24&t=${Date.now()}`;
            fill(el('p', {}, 'A dry run of what widgetd holds now: nothing changes, no provider runs.'),
                 el('a', { href: src, target: '_blank' }, el('img', { src, alt: 'The stacks over the next 24 hours', class: 'simulation' })));
          });
        }

        // --- gallery -----------------------------------------------------------------

        async function kinds() {
          if (!state.kinds) state.kinds = (await api('GET', '/api/widgets')).widgets;
          return state.kinds;
        }

        async function previewCard(kind, family, configuration) {
          const face = el('div', { class: `card gallery-card family-${family}` }, el('div', { class: 'face' }, el('div', { class: 'card-body' }, '…')));
          api('POST', '/api/preview', { kind, family, configuration })
            .then((preview) => { face.querySelector('.card-body').innerHTML = preview.html; })
            .catch((error) => { face.querySelector('.card-body').textContent = error.message; });
          return face;
        }

        async function openGallery() {
          const overlay = document.getElementById('gallery');
          const select = document.getElementById('gallery-stack');
          select.replaceChildren(el('option', { value: '' }, 'no stack'),
            ...(state.page ? state.page.stacks : []).map((s) => el('option', { value: s.name }, `stack ${s.name}`)),
            el('option', { value: '\u0000new' }, 'a new stack…'));
          overlay.hidden = false;
          const body = document.getElementById('gallery-body');
          body.replaceChildren(el('p', {}, 'Loading…'));
          try {
            const list = (await kinds()).filter((k) => !k.problem);
            body.replaceChildren(...await Promise.all(list.map(async (kind) => el('section', { class: 'gallery-kind', 'data-kind': kind.kind },
              el('h3', {}, kind.displayName), el('p', { class: 'description' }, kind.description || ''),
              el('div', { class: 'gallery-row' }, await Promise.all(kind.supportedFamilies.map(async (family) =>
                el('figure', { class: 'gallery-item' }, await previewCard(kind.kind, family),
                  el('figcaption', {}, family,
                    el('button', { type: 'button', class: 'primary', 'data-add': `${kind.kind} ${family}`, onclick: () => addInstance(kind.kind, family) }, 'Add'))))))))));
          } catch (error) {
            body.replaceChildren(el('p', { class: 'field-error' }, error.message));
          }
        }

        async function addInstance(kind, family) {
          let stack = document.getElementById('gallery-stack').value;
          try {
            if (stack === '\u0000new') {
              stack = (prompt('Name of the new stack') || '').trim();
              if (!stack) return;
              await api('POST', '/api/stacks', { name: stack });
            }
            await api('POST', '/api/instances', stack ? { kind, family, stack } : { kind, family });
            document.getElementById('gallery').hidden = true;
            await refresh();
          } catch (error) { say(error.message); }
        }

        // --- Edit Widget ---------------------------------------------------------------

        const editor = { id: null, kind: null, values: {}, fields: [] };

        async function openEditor(id) {
          const info = state.page.cards[id];
          const kind = (await kinds()).find((k) => k.kind === info.kind);
          if (!kind || !kind.intent) return;
          Object.assign(editor, { id, kind, family: info.family, values: {}, fields: [] });
          const form = document.querySelector('#editor .sheet');
          form.style.setProperty('--accent', kind.accentColor || '');
          form.style.setProperty('--sheet-background', kind.backgroundColor || '');
          form.querySelector('h2').textContent = kind.displayName;
          document.getElementById('editor-error').textContent = '';
          for (const parameter of kind.intent.parameters) {
            const current = info.configuration[parameter.name];
            editor.values[parameter.name] = current !== undefined ? current : parameter.default;
          }
          const fields = kind.intent.parameters.map((parameter) => field(parameter));
          document.getElementById('editor-fields').replaceChildren(...fields);
          document.getElementById('editor-preview').replaceChildren(await previewCard(kind.kind, info.family, info.configuration));
          applyShowIf();
          document.getElementById('editor').hidden = false;
        }

        function field(parameter) {
          const name = parameter.name;
          const row = el('div', { class: 'field', 'data-field': name },
            el('label', { for: `field-${name}` }, parameter.title || name));
          const set = (value) => { editor.values[name] = value; clearError(name); applyShowIf(); previewSoon(); };
          const value = editor.values[name];
          let input;
          switch (parameter.type) {
            case 'boolean':
              input = el('input', { type: 'checkbox', id: `field-${name}`, name, checked: value === true, onchange: (e) => set(e.target.checked) });
              break;
            case 'integer': case 'decimal':
              input = el('input', { type: 'number', id: `field-${name}`, name, min: parameter.min, max: parameter.max,
                                    step: parameter.type === 'integer' ? 1 : 'any', value: value ?? '',
                                    oninput: (e) => set(e.target.value === '' ? null : Number(e.target.value)) });
              if (parameter.min != null || parameter.max != null) {
                row.append(el('span', { class: 'hint' }, `${parameter.min ?? '…'} to ${parameter.max ?? '…'}`));
              }
              break;
            case 'enum':
              input = choices(name, parameter, value, parameter.cases || [], set);
              break;
            case 'entity':
              input = entityPicker(name, parameter, value, set);
              break;
            case 'date':
              input = el('input', { type: 'datetime-local', id: `field-${name}`, name, value: value ? String(value).slice(0, 16) : '',
                                    oninput: (e) => set(e.target.value ? new Date(e.target.value + 'Z').toISOString().replace('.000', '') : null) });
              break;
            default:
              input = el('input', { type: 'text', id: `field-${name}`, name, value: value ?? '', oninput: (e) => set(e.target.value || null) });
          }
          row.append(input, el('p', { class: 'field-error', 'data-error-for': name }));
          return row;
        }

        // One select per value: `multiple` with a family count shows that many, else one.
        function choices(name, parameter, value, options, set) {
          const count = parameter.multiple ? ((parameter.count || {})[editor.family] || Math.max(1, (value || []).length)) : 1;
          const values = parameter.multiple ? (Array.isArray(value) ? value.slice() : []) : [value];
          const box = el('div', { class: 'choices', id: `field-${name}` });
          const selects = [];
          for (let index = 0; index < count; index++) {
            const select = el('select', { name: parameter.multiple ? `${name}[${index}]` : name, onchange: () => {
              const picked = selects.map((s) => s.value || null);
              set(parameter.multiple ? picked.filter((v) => v != null) : picked[0]);
            } }, el('option', { value: '' }, '—'),
              options.map((o) => el('option', { value: o.id, selected: values[index] === o.id }, o.display)));
            if (values[index] != null && !options.some((o) => o.id === values[index])) {
              select.append(el('option', { value: values[index], selected: true }, values[index]));
            }
            selects.push(select);
            box.append(select);
          }
          box.refill = (fresh) => {
            selects.forEach((select, index) => {
              const keep = select.value || values[index];
              select.replaceChildren(el('option', { value: '' }, '—'), ...fresh.map((o) => el('option', { value: o.id, selected: keep === o.id }, o.display)));
              if (keep && !fresh.some((o) => o.id === keep)) select.append(el('option', { value: keep, selected: true }, keep));
            });
          };
          return box;
        }

        // Options come from the provider (`options`), searched as the user types.
        function entityPicker(name, parameter, value, set) {
          const box = choices(name, parameter, value, [], set);
          let timer = null;
          const search = el('input', { type: 'search', class: 'search', placeholder: 'Search', 'aria-label': `Search ${parameter.title || name}`,
                                       oninput: () => { clearTimeout(timer); timer = setTimeout(load, 200); } });
          const load = async () => {
            const query = new URLSearchParams({ kind: editor.kind.kind, parameter: name, family: editor.family });
            if (search.value) query.set('search', search.value);
            try { box.refill((await api('GET', `/api/options?${query}`)).options); clearError(name); }
            catch (error) { showError(name, error.message); }
          };
          load();
          return el('div', { class: 'entity' }, search, box);
        }

        // The preview follows the sheet, as the user changes it (the provider's snapshot of
        // what would be saved; a value it refuses leaves the last preview).
        let previewTimer = null;
        function previewSoon() {
          clearTimeout(previewTimer);
          previewTimer = setTimeout(async () => {
            try {
              const preview = await api('POST', '/api/preview', { kind: editor.kind.kind, family: editor.family, configuration: sheetConfiguration() });
              const body = document.querySelector('#editor-preview .card-body');
              if (body) body.innerHTML = preview.html;
            } catch (error) { /* the daemon's reason shows under the field once saved */ }
          }, 300);
        }

        function sheetConfiguration() {
          const configuration = {};
          for (const parameter of editor.kind.intent.parameters) {
            const value = editor.values[parameter.name];
            if (isShown(parameter) && value != null && !(typeof value === 'number' && isNaN(value))) configuration[parameter.name] = value;
          }
          return configuration;
        }

        function applyShowIf() {
          for (const parameter of editor.kind.intent.parameters) {
            const row = document.querySelector(`#editor-fields [data-field="${CSS.escape(parameter.name)}"]`);
            if (!row) continue;
            row.hidden = !isShown(parameter);
          }
        }
        function isShown(parameter) {
          const rule = parameter.showIf;
          if (!rule) return true;
          const parent = editor.kind.intent.parameters.find((p) => p.name === rule.parameter);
          return (!parent || isShown(parent)) && JSON.stringify(editor.values[rule.parameter]) === JSON.stringify(rule.equals);
        }
        function showError(name, message) {
          const slot = document.querySelector(`#editor [data-error-for="${CSS.escape(name)}"]`);
          if (slot) slot.textContent = message; else document.getElementById('editor-error').textContent = message;
        }
        function clearError(name) {
          const slot = document.querySelector(`#editor [data-error-for="${CSS.escape(name)}"]`);
          if (slot) slot.textContent = '';
        }

        async function saveEditor(event) {
          event.preventDefault();
          const configuration = sheetConfiguration();
          document.getElementById('editor-error').textContent = '';
          try {
            await api('POST', `/api/instances/${editor.id}/configure`, { configuration, replace: true });
            document.getElementById('editor').hidden = true;
            await refresh();
          } catch (error) {
            // The daemon names the parameter it refused: its message goes next to that field.
            const parameter = error.rpc && error.rpc.data && error.rpc.data.parameter;
            const reason = (error.rpc && error.rpc.data && error.rpc.data.reason) || error.message;
            if (parameter) showError(parameter, reason); else document.getElementById('editor-error').textContent = error.message;
          }
        }

        // --- live dates ------------------------------------------------------------------
        // A `<time class="live-date">` (a live date of the content, docs/widgets.md) reads as the
        // time goes by: its text is worked out here as widgetd's `LiveDate` does, from the
        // daemon's clock (`page.now`) running on in the page, and one timer is armed at the
        // next change, only while an element whose text changes is on the page.
        const live = { timer: null, offset: 0, pageNow: null };

        function liveNow() {
          const page = state.page;
          if (page && page.now !== live.pageNow) {
            live.pageNow = page.now;
            live.offset = page.clock === 'virtual' ? Date.parse(page.now) - Date.now() : 0;
          }
          return Date.now() + live.offset;
        }

        function liveUnits(minutes) {
          let left = minutes;
          const parts = [];
          for (const [size, name] of [[1440, 'day'], [60, 'hr'], [1, 'min']]) {
            const count = Math.floor(left / size);
            left -= count * size;
            if (count > 0) parts.push(`${count} ${name === 'day' && count !== 1 ? 'days' : name}`);
            if (parts.length === 2 || (parts.length && count === 0)) break;
          }
          return parts.length ? parts.join(', ') : '0 min';
        }

        // The text of `timer`, `relative` and `offset`; null for `time` and `date`, which the
        // server wrote already and which never change. Distances count whole steps from the
        // date, so a timer reads 0:01 just before it and 0:00 from it.
        function liveText(date, style, now) {
          const steps = (step) => Math.floor((now - date) / step);
          const two = (number) => String(number).padStart(2, '0');
          switch (style) {
            case 'timer': {
              const whole = Math.abs(steps(1000));
              const hours = Math.floor(whole / 3600), minutes = Math.floor((whole % 3600) / 60);
              return hours > 0 ? `${hours}:${two(minutes)}:${two(whole % 60)}` : `${minutes}:${two(whole % 60)}`;
            }
            case 'relative': return liveUnits(Math.abs(steps(60000)));
            case 'offset': {
              const seconds = steps(1000);
              const [size, name] = liveOffsetUnit(Math.abs(seconds));
              const count = Math.floor(Math.abs(seconds) / size);
              return `${seconds === 0 ? '' : seconds < 0 ? '-' : '+'}${count} ${name}${count === 1 ? '' : 's'}`;
            }
            default: return null;
          }
        }

        // The largest unit of a count of seconds that is not zero (seconds for none).
        function liveOffsetUnit(seconds) {
          return [[86400, 'day'], [3600, 'hour'], [60, 'minute']].find(([size]) => seconds >= size) ?? [1, 'second'];
        }

        // The text changes where the distance to the date crosses a whole step; an offset's
        // where its count of the unit shown changes (as LiveDate.nextChange).
        function liveNextChange(date, style, now) {
          if (style === 'offset') {
            const steps = Math.floor((now - date) / 1000), seconds = Math.abs(steps);
            const size = liveOffsetUnit(seconds)[0];
            const whole = Math.floor(seconds / size);
            return date + 1000 * (steps >= 0 ? (whole + 1) * size : -(whole * size - 1));
          }
          const step = style === 'relative' ? 60000 : 1000;
          const next = date + (Math.floor((now - date) / step) + 1) * step;
          return next > now ? next : next + step;
        }

        function updateLiveDates() {
          clearTimeout(live.timer);
          live.timer = null;
          const now = liveNow();
          let wake = null;
          for (const node of document.querySelectorAll('time.live-date[datetime]')) {
            const date = Date.parse(node.getAttribute('datetime'));
            const text = Number.isNaN(date) ? null : liveText(date, node.dataset.liveStyle, now);
            if (text == null) continue;
            if (node.textContent !== text) node.textContent = text;
            const next = liveNextChange(date, node.dataset.liveStyle, now);
            if (wake == null || next < wake) wake = next;
          }
          if (wake != null) live.timer = setTimeout(updateLiveDates, Math.max(0, wake - now));
        }

        // Whatever draws cards (the page's script or the server's first paint), the live dates
        // it puts on the page are read at once; a page without any keeps no timer.
        new MutationObserver(updateLiveDates).observe(document.body, { childList: true, subtree: true });
        updateLiveDates();

        // --- start -----------------------------------------------------------------------

        document.querySelector('main').addEventListener('click', control);
        document.querySelector('main').addEventListener('change', toggled);
        adopt();
        document.getElementById('open-gallery').addEventListener('click', openGallery);
        document.querySelector('[data-open-gallery]').addEventListener('click', openGallery);
        document.getElementById('open-schedule').addEventListener('click', openSchedule);
        document.getElementById('open-day').addEventListener('click', openDay);
        document.getElementById('panel-close').addEventListener('click', () => { state.panel = null; document.getElementById('panel').hidden = true; });
        document.querySelector('#editor form').addEventListener('submit', saveEditor);
        for (const overlay of document.querySelectorAll('.overlay')) {
          overlay.addEventListener('click', (event) => {
            if (event.target === overlay || event.target.closest('[data-close]')) overlay.hidden = true;
          });
        }
        document.addEventListener('visibilitychange', reportShown);
        listen();
        """#
}

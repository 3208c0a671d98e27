// A tiny element builder and the table, fact list and alert every page uses. Text always goes in as text nodes, so
// nothing an object holds can become markup.

/** h('a', {href: '#/x'}, 'text', child): attributes (on* are listeners), then children (strings become text). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag)
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === undefined || v === null || v === false) continue
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v)
    else if (k === 'className') el.className = v
    else el.setAttribute(k, v === true ? '' : String(v))
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue
    el.append(c instanceof Node ? c : document.createTextNode(String(c)))
  }
  return el
}

/**
 * A table: columns [{label, cell(row) → text or node, className?}], rows, a caption, and a key per row (set as
 * data-name, so rows can be found and kept stable).
 */
export function table(caption, columns, rows, key = (r) => r.metadata?.name) {
  return h(
    'div',
    { className: 'table-wrap' },
    h(
      'table',
      {},
      h('caption', {}, caption),
      h('thead', {}, h('tr', {}, columns.map((c) => h('th', { scope: 'col' }, c.label)))),
      h(
        'tbody',
        {},
        rows.length === 0
          ? h('tr', {}, h('td', { colspan: columns.length, className: 'note' }, 'None.'))
          : rows.map((r) =>
              h(
                'tr',
                { 'data-name': key(r) },
                columns.map((c) => {
                  const v = c.cell(r)
                  return h('td', { className: typeof c.className === 'function' ? c.className(r) : c.className }, v ?? '')
                }),
              ),
            ),
      ),
    ),
  )
}

/** A definition list of [label, value] pairs. */
export function facts(pairs) {
  return h('dl', { className: 'facts' }, pairs.flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v ?? '—')]))
}

/** An API refusal or failure, said as such (403s name what the identity may not do). */
export function alert(error) {
  const status = error?.status
  const title =
    status?.code === 403 ? 'Forbidden' : status?.code === 401 ? 'Not signed in' : status?.code ? `Error ${status.code}` : 'Error'
  return h('div', { className: 'alert', role: 'alert' }, h('strong', {}, `${title}: `), status?.message ?? String(error))
}

/** Replaces an element's children. */
export function replace(el, ...children) {
  el.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false))
}

/**
 * Replaces a live table's region with its redrawn table, keeping the keyboard focus where it was: on the same
 * row's (data-name) same cell's link or button, when the focus was in the old table.
 */
export function redraw(region, next) {
  const focused = document.activeElement
  const cell = region.contains(focused) ? focused.closest('td') : null
  const name = cell?.parentElement?.getAttribute('data-name')
  const column = cell ? [...cell.parentElement.children].indexOf(cell) : -1
  replace(region, next)
  if (name === null || name === undefined) return
  const row = [...region.querySelectorAll('tr[data-name]')].find((r) => r.getAttribute('data-name') === name)
  row?.children[column]?.querySelector('a, button, input, select, [tabindex]')?.focus()
}

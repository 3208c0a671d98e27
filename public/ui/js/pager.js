// The "Load more" control under a paged live table: how many of how many are shown, and a real button that fetches
// the next page. It lives outside the table (which is redrawn on every event), so the focus stays on it.
import { h } from './dom.js'

/** "500 of 1200", "500, more to load" (the server does not count with selectors), or "1200" once all are loaded. */
export function counted(paging) {
  if (!paging || paging.complete) return paging ? String(paging.shown) : '…'
  return paging.total === null ? `${paging.shown}, more to load` : `${paging.shown} of ${paging.total}`
}

/** A pager for one table; `noun` names what it loads ("pods", "Deployments"). update(paging) after each change. */
export function pager(noun) {
  const text = h('span', { className: 'note', tabindex: '-1' })
  const button = h('button', { type: 'button' }, `Load more ${noun}`)
  const el = h('div', { className: 'controls pager', role: 'group', 'aria-label': `Paging of ${noun}`, hidden: true }, text, button)
  let current = null
  button.addEventListener('click', () => {
    if (current && !current.loading) current.more()
  })
  return {
    el,
    update(paging) {
      current = paging
      if (paging.complete) {
        // Shown only once it had pages to load: the last one loaded, the focus moves from the gone button to the words.
        const focused = document.activeElement === button
        button.hidden = true
        text.textContent = `All ${paging.shown} ${noun} loaded.`
        if (focused) text.focus()
        return
      }
      el.hidden = false
      button.hidden = false
      button.setAttribute('aria-disabled', String(paging.loading))
      text.textContent = paging.loading
        ? `Showing ${counted(paging)} ${noun}; loading more…`
        : paging.error
          ? `Showing ${counted(paging)} ${noun}; the next page failed: ${paging.error}`
          : `Showing ${counted(paging)} ${noun}.`
    },
  }
}

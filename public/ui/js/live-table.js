// A live table: a collection listed in pages and watched (watch.js), drawn at most once a frame, sorted in the
// server's list order (so a loaded page appends), with its "Load more" control. Most pages are one or more of these.
import { alert, h, redraw, replace, table } from './dom.js'
import { counted, pager } from './pager.js'
import { byListOrder, liveList } from './watch.js'

/**
 * path: the collection; noun: what the rows are ("pods"); caption(count): the table's caption given the count
 * ("500 of 1200"); columns(): the columns (called at each draw, so they may read other state); only(o): which of the
 * listed objects to show (refresh() when what it decides on changed); say(text): the page's status line;
 * changed(items): told after each update (another table may decide on these rows).
 * Returns {region, stop, refresh}.
 */
export function liveTable(path, opts) {
  const { noun, caption, columns, only, say, changed, fieldSelector, labelSelector, sort = byListOrder, key } = opts
  const tableRegion = h('div', { 'aria-live': 'off' })
  const more = pager(noun)
  const region = h('div', {}, tableRegion, more.el)
  let frame = 0
  let items = new Map()
  let paging = null
  let failed = false
  const draw = () => {
    cancelAnimationFrame(frame)
    frame = requestAnimationFrame(() => {
      if (!paging || failed) return
      more.update(paging)
      const rows = [...items.values()].filter((o) => !only || only(o)).sort(sort)
      // Filtered rows are counted as shown; the server's total counts what the selectors gave.
      const count = !only ? counted(paging) : paging.complete ? String(rows.length) : `${rows.length}, more to load`
      redraw(tableRegion, table(caption(count), columns(), rows, key))
    })
  }
  const stop = liveList(path, {
    fieldSelector,
    labelSelector,
    onState: (s) => say?.(s),
    onError: (e) => {
      failed = true
      replace(tableRegion, alert(e))
    },
    onChange: (now, p) => {
      failed = false
      items = now
      paging = p
      draw()
      changed?.(now)
    },
  })
  return {
    region,
    stop: () => {
      cancelAnimationFrame(frame)
      stop()
    },
    refresh: draw,
  }
}

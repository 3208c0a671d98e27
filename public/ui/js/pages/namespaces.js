// Namespaces, live; choosing one makes it the namespace the other pages show.
import { alert, h, replace, table } from '../dom.js'
import { age } from '../format.js'
import { liveList } from '../watch.js'

export function namespacesPage(ctx) {
  const region = h('div')
  replace(ctx.main, h('h1', {}, 'Namespaces'), region)
  return liveList('/api/v1/namespaces', {
    onState: (s) => ctx.say(`Namespaces: ${s}`),
    onError: (e) => replace(region, alert(e)),
    onChange: (items) => {
      const rows = [...items.values()].sort((a, b) => a.metadata.name.localeCompare(b.metadata.name))
      replace(
        region,
        table(`${rows.length} namespaces`, [
          {
            label: 'Name',
            cell: (n) =>
              h(
                'a',
                {
                  href: '#/pods',
                  onclick: () => {
                    ctx.namespace = n.metadata.name
                  },
                },
                n.metadata.name,
              ),
          },
          { label: 'Status', cell: (n) => n.status?.phase ?? '' },
          { label: 'Age', cell: (n) => age(n.metadata.creationTimestamp) },
        ], rows),
      )
    },
  })
}

// Namespaces, live; choosing one makes it the namespace the other pages show.
import { h, replace } from '../dom.js'
import { age } from '../format.js'
import { liveTable } from '../live-table.js'

export function namespacesPage(ctx) {
  const live = liveTable('/api/v1/namespaces', {
    noun: 'namespaces',
    caption: (count) => `${count} namespaces`,
    say: (s) => ctx.say(`Namespaces: ${s}`),
    columns: () => [
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
    ],
  })
  replace(ctx.main, h('h1', {}, 'Namespaces'), live.region)
  return live.stop
}

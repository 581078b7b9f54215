// The head row of a table in the page: one <th> per label.
import { h } from 'vue';

export function tableHead(...labels: string[]) {
  return h(
    'thead',
    h(
      'tr',
      labels.map((label) => h('th', label)),
    ),
  );
}

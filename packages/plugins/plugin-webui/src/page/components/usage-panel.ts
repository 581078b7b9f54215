// The usage entry drawn: a stacked bar of the parts over the context window (plus the room kept for the reply),
// one row per part with its tokens and share (sub-rows by injector), then the totals the entry carries.
import { h, type VNode } from 'vue';
import type { UsageView } from '../model/usage-view.js';
import { preferences, t } from '../page-preferences.js';

const number = (value: number) => value.toLocaleString(preferences.locale);
const share = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0);
/** A share of the window; a part too small to round to 0.1 % still reads as present. */
const shareText = (percent: number, tokens: number) => (percent === 0 && tokens > 0 ? '<0.1%' : `${percent}%`);

export function renderUsage(usage: UsageView | undefined): VNode {
  if (!usage) return h('p', { class: 'placeholder' }, t('webui-page.usage.none'));
  const summary = usage.segments.map((segment) => `${segment.label} ${segment.percent}%`).join(', ');
  return h('div', { class: ['usage', `usage-${usage.level}`], 'data-testid': 'usage-panel' }, [
    h('p', { class: 'usage-total', 'data-testid': 'usage-total' }, [
      t('webui-page.usage.used', {
        used: number(usage.used),
        window: number(usage.contextWindow),
        percent: usage.percent,
      }),
      usage.estimate
        ? h('span', { class: 'badge', 'data-testid': 'usage-estimate' }, t('webui-page.usage.estimate'))
        : h('span', { class: 'badge', 'data-testid': 'usage-measured' }, t('webui-page.usage.lastCall')),
    ]),
    h('div', { class: 'usage-bar', role: 'img', 'aria-label': `${t('webui-page.usage.bar')}: ${summary}` }, [
      ...usage.segments.map((segment) =>
        h('span', {
          key: segment.label,
          class: 'usage-segment',
          style: { width: `${Math.min(segment.percent, 100)}%`, background: `var(--usage-${segment.colour})` },
          title: `${segment.label}: ${number(segment.tokens)}`,
        }),
      ),
      h('span', {
        class: 'usage-reserved',
        style: { width: `${Math.min(usage.reservedPercent, 100)}%` },
        title: t('webui-page.usage.reserved'),
      }),
    ]),
    h('table', { class: 'usage-rows' }, [
      h(
        'caption',
        { class: 'usage-caption', 'data-testid': 'usage-caption' },
        usage.partsDiffer
          ? t('webui-page.usage.partsDiffer', { total: number(usage.partsTotal), used: number(usage.used) })
          : t('webui-page.usage.partsAddUp', { total: number(usage.partsTotal) }),
      ),
      h(
        'tbody',
        usage.segments
          .flatMap((segment) => [
            h('tr', { key: segment.label, 'data-testid': 'usage-row' }, [
              h('td', [
                h('span', { class: 'swatch', style: { background: `var(--usage-${segment.colour})` } }),
                segment.label,
              ]),
              h('td', { class: 'num' }, number(segment.tokens)),
              h('td', { class: 'num' }, shareText(segment.percent, segment.tokens)),
            ]),
            ...segment.details.map((detail) =>
              h('tr', { key: `${segment.label}/${detail.name}`, class: 'usage-detail' }, [
                h('td', h('code', detail.name)),
                h('td', { class: 'num' }, number(detail.tokens)),
                h('td'),
              ]),
            ),
          ])
          .concat([
            h('tr', { key: 'sum', class: 'usage-sum', 'data-testid': 'usage-sum' }, [
              h('td', t('webui-page.usage.sum')),
              h('td', { class: 'num' }, number(usage.partsTotal)),
              h('td', { class: 'num' }, shareText(share(usage.partsTotal, usage.contextWindow), usage.partsTotal)),
            ]),
            h('tr', { key: 'reserved', class: 'usage-detail' }, [
              h('td', [h('span', { class: 'swatch swatch-reserved' }), t('webui-page.usage.reserved')]),
              h('td', { class: 'num' }, number(usage.maxTokens)),
              h('td', { class: 'num' }, `${usage.reservedPercent}%`),
            ]),
          ]),
      ),
    ]),
    h('ul', { class: 'usage-facts' }, [
      usage.cachedPromptTokens === undefined
        ? null
        : h(
            'li',
            { 'data-testid': 'usage-cached' },
            t('webui-page.usage.cachedOverlap', { tokens: number(usage.cachedPromptTokens) }),
          ),
      usage.completionTokens === undefined
        ? null
        : h(
            'li',
            { 'data-testid': 'usage-completion' },
            t('webui-page.usage.completionApart', { tokens: number(usage.completionTokens) }),
          ),
      h(
        'li',
        usage.historyLimit > 0
          ? t('webui-page.usage.historyLimit', { count: usage.historyMessages, limit: usage.historyLimit })
          : t('webui-page.usage.history', { count: usage.historyMessages }),
      ),
      h('li', t('webui-page.usage.budget', { tokens: number(usage.tokenBudget) })),
      usage.model ? h('li', t('webui-page.usage.model', { model: usage.model })) : null,
      usage.trimmed ? h('li', { class: 'warn' }, t('webui-page.usage.trimmed')) : null,
    ]),
  ]);
}

// The published figures behind the presets a view draws (the engine's presets op, `sources`):
// a closed disclosure under the view, one line a preset.
import { h } from '../util/dom.js';

/** `ids`: the presets in use (model, GPU, node); those the engine has no source for are left out. */
export function sourcesNote(label, presets, ids) {
  const items = [...new Set(ids)].filter((id) => presets?.sources?.[id]).map((id) => h('li', { dataset: { preset: id }, text: presets.sources[id] }));
  return h('details', { class: 'note preset-sources', 'data-role': 'sources' }, [h('summary', { text: label }), h('ul', {}, items)]);
}

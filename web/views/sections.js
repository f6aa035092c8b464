// The views Topics owns, by the address's `view` (app/address.js VIEWS): `topics` the list of the
// lecture's sections (views/topics.js), `ladder` the bandwidth ladder of §2.1 (views/ladder.js), `nccl` the
// protocols of §5.6 (views/nccl.js), `moe` the experts' all-to-alls of §6.4 (views/moe.js), `decode` the small messages of §5.7 (views/decode.js). Each is {root, ready}: `ready` resolves once it has
// drawn from the engine's answers (the page then says it is ready).

import { createTopics } from './topics.js';
import { createLadder } from './ladder.js';
import { createNcclView } from './nccl.js';
import { createMoe } from './moe.js';
import { createDecodeView } from './decode.js';

export const SECTION_VIEWS = ['topics', 'ladder', 'nccl', 'moe', 'decode'];

/** The view `name` in `lang`; `exercises` is the engine's exercise list, `links` its catalogue. */
export function createSectionView(name, lang, { exercises = [], links = [] } = {}) {
  if (name === 'topics') return { ...createTopics(lang, exercises), ready: Promise.resolve() };
  if (name === 'ladder') return createLadder(lang);
  if (name === 'nccl') return createNcclView(lang, links);
  if (name === 'moe') return createMoe(lang);
  if (name === 'decode') return createDecodeView(lang, links);
  throw new Error(`no section view ${name}`);
}

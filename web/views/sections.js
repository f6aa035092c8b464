// The views Topics owns, by the address's `view` (app/address.js VIEWS): `topics` the list of the
// lecture's sections (views/topics.js), `ladder` the bandwidth ladder of §2.1 (views/ladder.js), `nccl` the
// protocols of §5.6 (views/nccl.js), `moe` the experts' all-to-alls of §6.4 (views/moe.js), `decode` the small messages of §5.7 (views/decode.js), `split` tensor and sequence parallelism of §6.2 (views/split.js), `rdma` GPUDirect RDMA of §2.4 (views/rdma.js), `bound` the lower bound of §4.2 (views/bound.js), `memory` why several GPUs of §1 and §6.1 (views/memory.js), `compare` the comparison table of §6.6 (views/compare.js), `node` a node and a network of nodes of §2.2-§2.3 (views/node.js), `ring` ring attention of §6.5 (views/ring.js). Each is {root, ready}: `ready` resolves once it has
// drawn from the engine's answers (the page then says it is ready).

// Each view's module is fetched when it is first opened, not with the page (web/README.md "Views": the
// cold load stays the exercises'); the names alone come with the page (views/section_names.js).

/**
 * The view `name` in `lang` (a promise: its module loads first); `exercises` is the engine's
 * exercise list, `links` its catalogue.
 */
export async function createSectionView(name, lang, { exercises = [], links = [] } = {}) {
  if (name === 'topics') {
    const { createTopics } = await import('./topics.js');
    return { ...createTopics(lang, exercises), ready: Promise.resolve() };
  }
  if (name === 'ladder') return (await import('./ladder.js')).createLadder(lang);
  if (name === 'nccl') return (await import('./nccl.js')).createNcclView(lang, links);
  if (name === 'moe') return (await import('./moe.js')).createMoe(lang);
  if (name === 'decode') return (await import('./decode.js')).createDecodeView(lang, links);
  if (name === 'split') return (await import('./split.js')).createSplitView(lang, links);
  if (name === 'rdma') return (await import('./rdma.js')).createRdmaView(lang, links);
  if (name === 'bound') return (await import('./bound.js')).createBoundView(lang, links);
  // `memory`: why several GPUs and replicas, §1 and §6.1 (views/memory.js).
  if (name === 'memory') return (await import('./memory.js')).createMemory(lang);
  if (name === 'compare') return (await import('./compare.js')).createCompareView(lang, links);
  if (name === 'node') return (await import('./node.js')).createNodeView(lang);
  if (name === 'ring') return (await import('./ring.js')).createRingView(lang, links);
  throw new Error(`no section view ${name}`);
}

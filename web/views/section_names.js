// What the page needs of Topics at start, without loading it or any view: the names of the views
// Topics owns (the address's `view`, app/address.js VIEWS; views/sections.js makes them), each
// exercise's section and a section's address.
export const SECTION_VIEWS = ['topics', 'ladder', 'nccl', 'moe', 'decode', 'split', 'rdma', 'bound', 'memory', 'compare', 'node', 'ring'];

/** The lecture section each built-in exercise illustrates (its card carries it as data-lecture). */
export const EXERCISE_LECTURE = Object.freeze({ 1: '3', 2: '5.1', 3: '5.3', 4: '5.5', 5: '7.2', 6: '6.3', 7: '6.5', 8: '7.3' });

/** The address of a section on Topics. */
export const topicHref = (section) => `?view=topics#s-${section}`;

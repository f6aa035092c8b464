// Mistakes the declaration must catch (tests/node/types.test.mjs expects each line marked below
// to be an error): a field of the wrong type, an answer field that does not exist, an unknown op.
import { loadCommlab } from '../commlab.js';

const lab = await loadCommlab();
const a = lab.evaluate({ op: 'transfer', link: 'nvlink4', bytes: true }); // error: bytes
if (!('error' in a)) console.log(a.time_ms); // error: time_ms
lab.call('all_reduce', { devices: 8 }); // error: op

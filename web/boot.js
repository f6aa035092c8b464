// Entry module of index.html. The single-file build replaces it with one that hands over the
// inlined engine instead of importing ./engine/commlab.js.
import { start } from './app/main.js';

start();

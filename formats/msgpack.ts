/** The msgpack settings every byte format of the project shares. */
// `msgpackr/pack` is msgpackr itself (in Node: its index.js) without the entry point's side effect
// of loading the native string decoder, an add-on that costs ~10 ms of CPU to load and speeds up
// only the decoding of large buffers of strings. A `kdd build` never needs it (10,800 documents,
// nothing changed or one edit: same CPU with or without it); modules that decode whole bundles
// import formats/native-strings.ts for it.
import { Packr } from 'msgpackr/pack';

// Fixed options: plain maps (records are slower and save ~1 %), no structure sharing across calls.
export const newPackr = () => new Packr({ useRecords: false, variableMapSize: true });

/** The msgpack settings every byte format of the project shares. */
import { Packr } from 'msgpackr';

// Fixed options: plain maps (records are slower and save ~1 %), no structure sharing across calls.
export const newPackr = () => new Packr({ useRecords: false, variableMapSize: true });

/**
 * Imported for its side effect: msgpackr's entry point installs its native string decoder (where the
 * add-on is available) for every Packr, whichever module made it. Decoding a whole bundle needs it:
 * loading the 10,800-document bundle takes ~0.3 s of CPU with it against ~0.4 s without. Those
 * who only encode, or decode small caches, leave it out (formats/msgpack.ts).
 */
import 'msgpackr';

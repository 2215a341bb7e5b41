/** The product's own English features: `specs/04-verification/examples/*.feature`. */
import { resolve } from 'node:path';
import { registerFeatures } from '../runner.js';
import '../steps/index.js';
import { REPO_ROOT } from '../world.js';

registerFeatures('product', resolve(REPO_ROOT, 'specs/04-verification/examples'));

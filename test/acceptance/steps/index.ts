/** Loads every step definition file (side effects: `defineStep` calls). */
import './es-index.js';
import './es-query.js';
import './es-merge.js';
import './en-cli.js';
import './en-serve.js';
import './en-site.js';
import './en-dev.js';

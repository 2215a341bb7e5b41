/**
 * `kdd site [DIR=dist] [--specs specs]` (#7, #18): copies the static site into DIR, next to
 * `kdd.json`, and writes the search sub-bundle for the bundle it names and each spec of the specs
 * tree rendered for its node page. Serve DIR with `kdd serve DIR` or any static host.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { writeSite } from '../../library/site.js';
import { parseFlags, UsageError, type Command, type FlagTable } from '../command.js';

/** Every `kdd site` flag: what it parses and what `kdd site --help` prints. */
const SITE_FLAGS = {
  specs: { type: 'string', value: 'DIR', description: 'The specs tree whose documents the node pages render as written (default specs when it exists; else the extracted fields)' },
  json: { type: 'boolean', default: false, description: 'Print the report (app files, search sub-bundle sizes) as JSON' },
} as const satisfies FlagTable;

export const siteCommand: Command = {
  name: 'site',
  summary: 'Write the static search site (and its search sub-bundle) next to the bundle in DIR',
  usage: 'kdd site [DIR=dist] [options]',
  flags: SITE_FLAGS,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, SITE_FLAGS);
    if (positionals.length > 1) throw new UsageError(`unexpected argument '${positionals[1]}'`);
    // The default tree is optional (node pages then show extracted fields); one named on the command line must exist.
    const specsDir = resolve(io.cwd, values.specs ?? 'specs');
    if (values.specs !== undefined && !existsSync(specsDir)) throw new UsageError(`--specs ${values.specs}: no such folder`);
    const report = await writeSite(resolve(io.cwd, positionals[0] ?? 'dist'), existsSync(specsDir) ? { specsDir } : {});
    if (values.json) {
      io.stdout(`${JSON.stringify(report, null, 2)}\n`);
      return 0;
    }
    io.stdout(`kdd site: ${report.app_files.length} app files → ${report.dir}\n`);
    if (report.search) {
      const { search } = report;
      io.stdout(`  search sub-bundle: ${search.files} files, ${search.total_bytes} bytes (meta ${search.meta_bytes} bytes) for ${search.source}\n`);
      const { documents } = report;
      if (documents) io.stdout(`  documents: ${documents.documents} rendered, ${documents.missing} source files missing, ${documents.stale} changed since the build (those show extracted fields)\n`);
      else io.stdout(`  documents: no specs tree at ${specsDir}: node pages show extracted fields (pass --specs SPECS_DIR)\n`);
    } else {
      io.stdout(`  no kdd.json in ${report.dir} yet: run 'kdd build' first, then 'kdd site' again for the search sub-bundle\n`);
    }
    return 0;
  },
};

// Preloaded into a measured process (`node --import ./bench/peak-rss.mjs …`): prints the process's
// peak resident set size on stderr as it exits, so a bench can report the high-water mark of a
// `kdd build` it spawned without a platform-specific `time` command.
import { writeSync } from 'node:fs';

process.on('exit', () => {
  writeSync(2, `\nkdd-bench-peak-rss-kb ${process.resourceUsage().maxRSS}\n`);
});

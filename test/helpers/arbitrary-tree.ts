/**
 * fast-check arbitraries for small spec trees: entities, rules and use cases that link to each
 * other at random (typed edges, layer violations, dangling links), plus edit / add / delete / rename
 * sequences over them. A tree is `path → text`, paths relative to the specs root.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import fc from 'fast-check';

export type Tree = Record<string, string>;
type DocKind = 'entity' | 'rule' | 'uc';

export interface DocSpec {
  kind: DocKind;
  n: number;
  links: string[];
  version: number;
}

const N = [1, 2, 3, 4] as const;
/** Every id a document may link to; `Missing` never exists, so it always dangles. */
export const TARGETS = [...N.map((n) => `Ent${n}`), ...N.map((n) => `BR-GEN-00${n}`), ...N.map((n) => `UC-00${n}`), 'Missing'];

export function docId(spec: Pick<DocSpec, 'kind' | 'n'>): string {
  return spec.kind === 'entity' ? `Ent${spec.n}` : spec.kind === 'rule' ? `BR-GEN-00${spec.n}` : `UC-00${spec.n}`;
}

export function docPath(spec: Pick<DocSpec, 'kind' | 'n'>): string {
  const id = docId(spec);
  return spec.kind === 'entity' ? `01-domain/entities/${id}.md` : spec.kind === 'rule' ? `01-domain/rules/${id}.md` : `02-behavior/use-cases/${id}-Gen.md`;
}

const KIND = { entity: 'entity', rule: 'business-rule', uc: 'use-case' } as const;

export function docText(spec: DocSpec): string {
  const id = docId(spec);
  const links = spec.links.map((target) => `[[${target}]]`).join(', ');
  const lines = ['---', `id: ${id}`, `kind: ${KIND[spec.kind]}`, `title: Generated ${id}`, 'status: draft', '---', '', `# ${id} — Generated ${id}`, '', '## Descripción', '', `Versión ${spec.version} de ${id}. Enlaces: ${links || 'ninguno'}.`, ''];
  if (spec.kind === 'uc') {
    const rules = spec.links.filter((target) => target.startsWith('BR-'));
    lines.push('## Reglas Aplicadas', '', ...(rules.length ? rules.map((rule) => `- [[${rule}]]`) : ['- ninguna']), '');
  }
  return lines.join('\n');
}

export function docArbitrary(): fc.Arbitrary<DocSpec> {
  return fc.record({
    kind: fc.constantFrom<DocKind>('entity', 'rule', 'uc'),
    n: fc.constantFrom(...N),
    links: fc.uniqueArray(fc.constantFrom(...TARGETS), { maxLength: 4 }),
    version: fc.nat(5),
  });
}

/** A tree of distinct documents (unique ids and paths), optionally with a README that is not a spec. */
export function treeArbitrary(options: { minDocs?: number; maxDocs?: number } = {}): fc.Arbitrary<Tree> {
  return fc
    .tuple(fc.uniqueArray(docArbitrary(), { minLength: options.minDocs ?? 1, maxLength: options.maxDocs ?? 8, selector: docId }), fc.boolean())
    .map(([docs, readme]) => {
      const tree: Tree = Object.fromEntries(docs.map((doc) => [docPath(doc), docText(doc)]));
      if (readme) tree['README.md'] = '# Specs\n\nNot a spec: no front-matter.\n';
      return tree;
    });
}

export type TreeOp =
  | { op: 'edit'; pick: number; links: string[]; version: number }
  /** Edits the prose only: the links stay (the link stage's input does not change). */
  | { op: 'prose'; pick: number; version: number }
  | { op: 'add'; doc: DocSpec }
  | { op: 'delete'; pick: number }
  | { op: 'rename'; pick: number };

export function opArbitrary(): fc.Arbitrary<TreeOp> {
  return fc.oneof(
    fc.record({ op: fc.constant('edit' as const), pick: fc.nat(), links: fc.uniqueArray(fc.constantFrom(...TARGETS), { maxLength: 4 }), version: fc.nat(5) }),
    fc.record({ op: fc.constant('prose' as const), pick: fc.nat(), version: fc.nat(5) }),
    fc.record({ op: fc.constant('add' as const), doc: docArbitrary() }),
    fc.record({ op: fc.constant('delete' as const), pick: fc.nat() }),
    fc.record({ op: fc.constant('rename' as const), pick: fc.nat() }),
  );
}

const ID_LINE = /^id: (.+)$/m;

/** Applies one operation; ops that name no file (empty tree) leave the tree as it is. */
export function applyOp(tree: Tree, op: TreeOp): Tree {
  const next = { ...tree };
  const paths = Object.keys(tree).sort();
  if (op.op === 'add') {
    // Adding an id that already exists would make a duplicate: replace that file instead.
    const clash = paths.find((path) => ID_LINE.exec(tree[path]!)?.[1] === docId(op.doc));
    if (clash) delete next[clash];
    next[docPath(op.doc)] = docText(op.doc);
    return next;
  }
  if (paths.length === 0) return next;
  const path = paths[op.pick % paths.length]!;
  const text = tree[path]!;
  if (op.op === 'delete') delete next[path];
  else if (op.op === 'rename') {
    delete next[path];
    // Same id in a sub-folder: the node survives, its source_file moves (a git rename).
    next[path.includes('/moved/') ? path.replace('/moved/', '/') : path.replace(/\/([^/]+)$/, '/moved/$1')] = text;
  } else {
    const spec = specOf(text);
    const links = op.op === 'edit' ? op.links : spec?.links;
    next[path] = spec ? docText({ ...spec, links: links ?? [], version: op.version }) : `${text}\nEditado.\n`;
  }
  return next;
}

function specOf(text: string): DocSpec | null {
  const id = ID_LINE.exec(text)?.[1];
  const match = id && /^(?:Ent(\d)|BR-GEN-00(\d)|UC-00(\d))$/.exec(id);
  if (!match) return null;
  const kind: DocKind = match[1] ? 'entity' : match[2] ? 'rule' : 'uc';
  const listed = /Enlaces: (.*)\.$/m.exec(text)?.[1] ?? '';
  const links = [...listed.matchAll(/\[\[([^\]]+)\]\]/g)].map((m) => m[1]!);
  return { kind, n: Number(match[1] ?? match[2] ?? match[3]), links, version: 0 };
}

/** Makes `dir` hold exactly `tree` (writes changed files, removes the others it knew about). */
export async function writeTree(dir: string, tree: Tree, previous: Tree = {}): Promise<void> {
  await mkdir(dir, { recursive: true });
  for (const path of Object.keys(previous)) if (!(path in tree)) await rm(join(dir, path), { force: true });
  for (const [path, text] of Object.entries(tree)) {
    if (previous[path] === text) continue;
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), text);
  }
}

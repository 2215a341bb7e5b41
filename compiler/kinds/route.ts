/**
 * Kind router (BR-DOCUMENT-001): front-matter `kind` wins; Gherkin files are routed by extension;
 * the folder only validates (a mismatch is a warning, never a re-routing). Also derives the
 * document's place in the tree: layer from the path, domain from `domains/<name>/` or `_shared/`.
 */
import { LAYERS, type Layer } from '../../model/graph.js';
import { kindSpec, type KindSpec } from '../../model/kinds.js';

export interface TreePlace {
  domain: string | null;
  /** Path below the domain folder (equal to the path in single-domain trees). */
  localPath: string;
  layer: Layer | null;
}

export function placeInTree(path: string): TreePlace {
  const parts = path.split('/');
  let domain: string | null = null;
  let rest = parts;
  if (parts[0] === 'domains' && parts.length > 2) {
    domain = parts[1]!;
    rest = parts.slice(2);
  } else if (parts[0] === '_shared') {
    domain = '_shared';
    rest = parts.slice(1);
  }
  const layer = (rest.find((part) => (LAYERS as readonly string[]).includes(part)) as Layer | undefined) ?? null;
  return { domain, localPath: rest.join('/'), layer };
}

export function isFeatureFile(path: string): boolean {
  return path.endsWith('.feature');
}

/** True when the document sits in one of the folders the kind table expects for its kind. */
export function inExpectedFolder(spec: KindSpec, localPath: string): boolean {
  const dir = localPath.includes('/') ? localPath.slice(0, localPath.lastIndexOf('/')) : '';
  return spec.folders.some((folder) => dir === folder || dir.startsWith(`${folder}/`));
}

export function routeKind(frontMatterKind: unknown): KindSpec | undefined {
  return typeof frontMatterKind === 'string' ? kindSpec(frontMatterKind.trim()) : undefined;
}

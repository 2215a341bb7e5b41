/**
 * Worker side of the document pieces (formats/site-docs.ts): the pointer once, then one bucket
 * and one piece per node page. Pieces rendered for another bundle than the one `kdd.json` names
 * are ignored (the page then shows the extracted fields), never shown against the wrong graph.
 */
import { parsePointer, POINTER_FILE } from '../../runtime/load.js';
import { DOCS_FORMAT, DOCS_POINTER_FILE, docBucket, type DocBucket, type DocPiece, type DocsPointer } from '../../formats/site-docs.js';

export interface DocLoader {
  /** The node's rendered document, or null when the site has none for it. */
  load(id: string): Promise<DocPiece | null>;
}

export function createDocLoader(base: () => string): DocLoader {
  let pointer: Promise<DocsPointer | null> | null = null;
  const buckets = new Map<string, Promise<DocBucket>>();
  const json = async <T>(name: string): Promise<T | null> => {
    const response = await fetch(`${base()}${name}`);
    return response.ok ? ((await response.json()) as T) : null;
  };
  const current = () =>
    (pointer ??= Promise.all([json<unknown>(POINTER_FILE), json<DocsPointer>(DOCS_POINTER_FILE)]).then(
      ([bundle, docs]) => (bundle && docs?.format === DOCS_FORMAT && docs.source === parsePointer(bundle, POINTER_FILE).bundle ? docs : null),
      (error: unknown) => {
        pointer = null;
        throw error;
      },
    ));
  return {
    async load(id) {
      const docs = await current();
      if (!docs || docs.buckets.length === 0) return null;
      const name = docs.buckets[docBucket(id, docs.buckets.length)]!;
      let bucket = buckets.get(name);
      if (!bucket) {
        bucket = json<DocBucket>(name).then((b) => b ?? {});
        buckets.set(name, bucket);
      }
      const file = (await bucket)[id];
      return file ? json<DocPiece>(file) : null;
    },
  };
}

/**
 * Gherkin features have no front-matter: the kind comes from the extension, the id from the file
 * name, and the links from scenario names, tags and step text (doc strings are example specs, so
 * their links describe the example, not what the scenario validates).
 */
import type { GraphNode } from '../../model/graph.js';
import { parseGherkin } from '../parse/gherkin.js';
import type { GherkinStep, WikiLink } from '../parse/types.js';
import type { SourceFile } from '../read.js';
import { type ExtractContext, type ExtractOutcome, baseName, nodeId } from './record.js';
import type { RawLink } from '../../model/records.js';
import { placeInTree } from './route.js';
import { kindSpec } from '../../model/kinds.js';

const FEATURE = kindSpec('feature')!;

export function extractFeature(file: SourceFile, context: ExtractContext): ExtractOutcome {
  const feature = parseGherkin(file.text);
  const place = placeInTree(file.path);
  const docId = baseName(file.path);
  const scenarios = feature.scenarios.map((scenario) => ({
    id: scenario.id,
    name: scenario.name,
    tags: scenario.tags,
    steps: scenario.steps.map(stepText),
    links: uniqueTargets(scenario.links),
  }));
  const node: GraphNode = {
    id: nodeId(place.domain, FEATURE.prefix, docId),
    kind: 'feature',
    doc_id: docId,
    title: feature.name || docId,
    source_file: file.path,
    source_hash: file.hash,
    layer: place.layer ?? FEATURE.layer,
    status: 'draft',
    aliases: [`${docId}.feature`],
    domain: place.domain,
    indexed_fields: {
      description: feature.description,
      language: feature.language,
      background: feature.background.map(stepText),
      scenarios,
    },
    sections: [
      ...(feature.description ? [{ heading: feature.name, depth: 1, field: 'description', text: feature.description }] : []),
      ...feature.scenarios.map((scenario) => ({
        heading: scenario.name,
        depth: 2,
        field: 'scenarios',
        text: scenario.steps.map((step) => `${step.keyword} ${step.text}`).join('\n'),
      })),
    ],
    tags: [...new Set([...feature.tags, ...feature.scenarios.flatMap((scenario) => scenario.tags)])].sort(),
    indexed_at: context.indexedAt,
  };
  const links = [
    ...feature.links.map((link) => featureLink(link, null)),
    ...feature.scenarios.flatMap((scenario) => scenario.links.map((link) => featureLink(link, scenario.name))),
  ];
  const facts = { front_matter: {}, section_count: feature.scenarios.length, wiki_link_count: links.length };
  return { status: 'indexed', record: { node, links }, facts, warnings: [] };
}

function stepText(step: GherkinStep): string {
  return `${step.keyword.trim()} ${step.text}`;
}

function uniqueTargets(links: readonly WikiLink[]): string[] {
  return [...new Set(links.map((link) => link.target).filter((target): target is string => !!target))];
}

/**
 * Steps quote example specs as test data (`a file that contains "[[core::Usuario]]"`), so a reference
 * that resolves links the feature to what it validates, and one that does not is no defect: `id` origin.
 */
function featureLink(link: WikiLink, scenario: string | null): RawLink {
  return { target: link.target, domain: link.domain, anchor: link.anchor, alias: link.alias, field: 'scenarios', section: scenario, origin: 'id' };
}

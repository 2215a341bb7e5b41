/** `#/impact/ID`, `#/violations` and `#/health`: the runtime's answers as tables of links. */
import type { HealthResult } from '../../../runtime/queries/health.js';
import type { ImpactResult } from '../../../runtime/queries/impact.js';
import type { ViolationsResult } from '../../../runtime/queries/violations.js';
import { h, nodeHref, nodeLink, table } from '../dom.js';

const idLink = (id: string) => h('a', { href: nodeHref(id) }, h('code', {}, id));

export function renderImpact(result: ImpactResult): HTMLElement {
  const node = result.analyzed_node;
  return h(
    'section',
    { class: 'page impact' },
    h('h1', {}, 'What is affected if ', nodeLink(node), ' changes'),
    h('p', { class: 'muted' }, `Change type ${result.change_type}, depth ${result.depth}: ${result.total_directly_affected} directly and ${result.total_transitively_affected} transitively affected, ${result.total_scenarios} scenarios to re-run.${result.truncated ? ' More dependents exist beyond this depth.' : ''}`),
    h('h2', {}, `Directly affected (${result.directly_affected.length})`),
    result.directly_affected.length
      ? table(['Node', 'Kind', 'Via', 'Impact'], result.directly_affected.map((d) => [nodeLink(d), d.kind, h('code', {}, d.edge_type), d.impact]))
      : h('p', { class: 'muted' }, 'Nothing depends on this node directly.'),
    h('h2', {}, `Transitively affected (${result.transitively_affected.length})`),
    result.transitively_affected.length
      ? table(
          ['Node', 'Hops', 'Path', 'Impact'],
          result.transitively_affected.map((t) => [nodeLink(t), t.distance, h('span', { class: 'path' }, t.path.map((id, i) => [i ? h('span', { class: 'muted' }, ` ←${t.edge_types[i - 1]}— `) : '', idLink(id)])), t.impact]),
        )
      : h('p', { class: 'muted' }, 'None.'),
    h('h2', {}, `Scenarios to re-run (${result.scenarios_to_rerun.length})`),
    result.scenarios_to_rerun.length
      ? table(['Scenario', 'Feature', 'Validates', 'Why'], result.scenarios_to_rerun.map((s) => [s.scenario && !s.name.startsWith(s.scenario) ? h('span', {}, h('code', {}, s.scenario), ` ${s.name}`) : s.name, idLink(s.feature_node), s.validates.map((id) => [idLink(id), ' ']), s.reason]))
      : h('p', { class: 'muted' }, 'No scenario validates an affected node.'),
    result.layer_violations.length
      ? [h('h2', {}, `Layer violations met (${result.layer_violations.length})`), violationTable(result.layer_violations)]
      : null,
  );
}

function violationTable(rows: ViolationsResult['violations'] | ImpactResult['layer_violations']): HTMLElement {
  return table(
    ['From', 'To', 'Edge', 'Layers', 'File'],
    rows.map((v) => [idLink(v.from_node), idLink(v.to_node), h('code', {}, v.edge_type), `${v.from_layer} → ${v.to_layer}`, h('code', {}, v.source_file)]),
  );
}

export function renderViolations(result: ViolationsResult): HTMLElement {
  return h(
    'section',
    { class: 'page violations' },
    h('h1', {}, 'Layer violations'),
    h('p', { class: 'muted' }, `${result.total_violations} of ${result.total_edges_analyzed} edges (${result.violation_rate} %) point up the layer hierarchy (BR-LAYER-001: a layer may only reference the layers below it).`),
    result.violations.length
      ? table(
          ['From', 'To', 'Edge', 'Why', 'Section', 'File'],
          result.violations.map((v) => [idLink(v.from_node), idLink(v.to_node), h('code', {}, v.edge_type), v.explanation, v.section ?? '', h('code', {}, v.source_file)]),
        )
      : h('p', {}, 'No layer violations.'),
  );
}

export function renderHealth(result: HealthResult): HTMLElement {
  return h(
    'section',
    { class: 'page health' },
    h('h1', {}, 'Index health'),
    h('p', { class: 'muted' }, `${result.total_nodes} nodes, ${result.total_edges} edges, ${result.total_dangling} dangling links, ${result.total_orphans} orphans.`),
    h('h2', {}, `Dangling links (${result.total_dangling})`),
    result.dangling.length
      ? table(['From', 'Unresolved target', 'Section', 'File'], result.dangling.map((d) => [idLink(d.from_node), h('code', { class: 'bad' }, `[[${d.target}]]`), d.section ?? '', h('code', {}, d.source_file)]))
      : h('p', {}, 'Every wiki-link resolves.'),
    h('h2', {}, `Orphans (${result.total_orphans})`),
    h('p', { class: 'muted' }, 'Nodes with no edge in or out.'),
    result.orphans.length ? table(['Node', 'Kind', 'File'], result.orphans.map((o) => [nodeLink(o), o.kind, h('code', {}, o.source_file)])) : h('p', {}, 'No orphans.'),
  );
}

import { describe, expect, it } from 'vitest';
import { mermaidKind, parseStateDiagram } from '../../compiler/parse/index.js';

const LIFE_CYCLE = `%% ciclo de vida de un pedido
stateDiagram-v2
    direction LR
    state "Borrador editable" as borrador
    [*] --> borrador
    borrador --> confirmado : EVT-Pedido-Confirmado
    confirmado --> enviado : al salir del almacén ([[EVT-Pedido-Enviado]])
    confirmado --> cancelado:cliente cancela
    note right of cancelado
        texto --> que no es transición
    end note
    enviado --> [*]
    cancelado --> [*]
`;

describe('parseStateDiagram', () => {
  const diagram = parseStateDiagram(LIFE_CYCLE)!;

  it('lists states in order of appearance, without the [*] pseudo-state', () => {
    expect(diagram.states).toEqual(['borrador', 'confirmado', 'enviado', 'cancelado']);
  });

  it('reads transitions with labels and the EVT id a label names', () => {
    expect(diagram.transitions).toEqual([
      { from: '[*]', to: 'borrador', event: null, label: null },
      { from: 'borrador', to: 'confirmado', event: 'EVT-Pedido-Confirmado', label: 'EVT-Pedido-Confirmado' },
      { from: 'confirmado', to: 'enviado', event: 'EVT-Pedido-Enviado', label: 'al salir del almacén ([[EVT-Pedido-Enviado]])' },
      { from: 'confirmado', to: 'cancelado', event: null, label: 'cliente cancela' },
      { from: 'enviado', to: '[*]', event: null, label: null },
      { from: 'cancelado', to: '[*]', event: null, label: null },
    ]);
  });

  it('accepts the v1 keyword and composite states', () => {
    const diagram = parseStateDiagram('stateDiagram\n  state Active {\n    Idle --> Busy : EVT-Job-Started\n  }\n  [*] --> Active\n');
    expect(diagram).toEqual({
      states: ['Active', 'Idle', 'Busy'],
      transitions: [
        { from: 'Idle', to: 'Busy', event: 'EVT-Job-Started', label: 'EVT-Job-Started' },
        { from: '[*]', to: 'Active', event: null, label: null },
      ],
    });
  });

  it('returns null for other diagrams and for empty code', () => {
    expect(parseStateDiagram('flowchart LR\n  A --> B\n')).toBeNull();
    expect(parseStateDiagram('')).toBeNull();
  });
});

describe('mermaidKind', () => {
  it('names the diagram type after comments and a config header', () => {
    expect(mermaidKind('---\ntitle: Flujo\n---\n%% comment\nsequenceDiagram\n  A->>B: hi')).toBe('sequenceDiagram');
    expect(mermaidKind('   \n')).toBeNull();
  });
});

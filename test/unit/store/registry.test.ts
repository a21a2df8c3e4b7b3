import { describe, expect, it } from 'vitest';
import { toView } from '../../../lib/model/view';
import { entryValues, registeredFields, registryPartition, registryValues } from '../../../lib/store/registry';
import { anAction } from '../action-fixture';

describe('the value registry', () => {
  it("registers an action's people by id, its location fields and producer name; never ''", () => {
    const action = anAction();
    expect(registryValues(action)).toEqual([
      ['owner', 'owner-1'],
      ['assignee', 'undefined'],
      ['location.site', 'North'],
      ['actionProducer.name', 'inspections'],
      ['location.team', 'Blue'],
    ]);
  });

  it("a create registers its snapshot's values; an edit only those it changed to; other entries none", () => {
    const action = anAction();
    const base = { actionId: action.id, version: 1, actor: action.owner, time: action.createdAt };
    expect(entryValues({ ...base, type: 'created', action: toView(action) })).toEqual(registryValues(action));
    const moved = { ...action.location, site: 'South', businessUnit: 'Iron Ore' };
    expect(
      entryValues({
        ...base,
        type: 'updated',
        changes: { location: { before: action.location, after: moved }, title: { before: 'a', after: 'b' } },
      }),
    ).toEqual([
      ['location.site', 'South'],
      ['location.businessUnit', 'Iron Ore'],
      ['location.team', 'Blue'],
    ]);
    const assignee = { id: 'u-2', name: 'Bo', email: null };
    expect(entryValues({ ...base, type: 'updated', changes: { assignee: { before: null, after: assignee } } })).toEqual(
      [['assignee', 'u-2']],
    );
    expect(entryValues({ ...base, type: 'deleted', action: toView(action) })).toEqual([]);
  });

  it('keeps each field in a partition of its own', () => {
    expect(new Set(registeredFields.map((f) => registryPartition(f)))).toHaveProperty('size', registeredFields.length);
  });
});

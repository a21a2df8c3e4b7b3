import type { Sizes } from '../../../../lib/store/list/plan/plan';

/** What the counters say of a 10,000-action table, for the planner's tests (`plan.test.ts`, `planned.test.ts`). */
export const sizes: Sizes = {
  total: 10_000,
  values: {
    'location.site': { Cadia: 380 },
    'location.businessUnit': { Copper: 380 },
    status: { '1': 1527, '2': 1085, '5': 239 },
  },
};

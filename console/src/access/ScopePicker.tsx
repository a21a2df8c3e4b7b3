import type { Scope } from '../api-pending';
import { me } from '../me';
import { type KnownLocations, knownLocations } from './locations';

interface Props {
  businessUnit: string;
  site: string;
  /** Places that exist: those counted, of the newest actions, and of the grants listed. */
  places: Scope[];
  onChange: (change: { businessUnit?: string; site?: string }) => void;
}

/**
 * A scope's business unit and site, picked from the places that exist (the counts by business
 * unit and site, the newest actions the admin sees, the grants listed and the admin's own
 * grants), not typed. The first choice of each is "everything" inside the one before.
 */
export function ScopePicker({ businessUnit, site, places, onChange }: Props) {
  const known: KnownLocations = knownLocations([...places, ...(me.value?.grants ?? []).map((g) => g.scope)]);
  const sites = known.sitesOf[businessUnit] ?? [];
  return (
    <>
      <div class="field">
        <label for="grant-business-unit">Business unit</label>
        <select
          id="grant-business-unit"
          value={businessUnit}
          onChange={(event) => onChange({ businessUnit: event.currentTarget.value, site: '' })}
        >
          <option value="">Everything</option>
          {known.businessUnits.map((unit) => (
            <option key={unit} value={unit}>
              {unit}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="grant-site">Site</label>
        <select
          id="grant-site"
          value={site}
          disabled={!businessUnit}
          onChange={(event) => onChange({ site: event.currentTarget.value })}
        >
          <option value="">{businessUnit ? `All of ${businessUnit}` : 'Everything'}</option>
          {sites.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </div>
    </>
  );
}

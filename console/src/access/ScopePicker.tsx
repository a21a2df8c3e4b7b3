import { useEffect, useState } from 'preact/hooks';
import { api } from '../api';
import type { Scope } from '../api-pending';
import { me } from '../me';
import { type KnownLocations, knownLocations } from './locations';

/** How many of the newest actions the picker reads for the places they are at: one list call. */
const SAMPLE = 100;

interface Props {
  businessUnit: string;
  site: string;
  /** Scopes already granted, whose places exist too. */
  granted: Scope[];
  onChange: (change: { businessUnit?: string; site?: string }) => void;
}

/**
 * A scope's business unit and site, offering the places that exist: those of the newest actions
 * the admin sees, of the grants listed and of the admin's own grants. Empty means everything;
 * a site needs its business unit.
 */
export function ScopePicker({ businessUnit, site, granted, onChange }: Props) {
  const [seen, setSeen] = useState<Scope[]>([]);
  useEffect(() => {
    void api.GET('/api/actions', { params: { query: { limit: SAMPLE } } }).then(({ data }) => {
      if (data) setSeen(data.actions.map((action) => action.location));
    });
  }, []);
  const known: KnownLocations = knownLocations([...seen, ...granted, ...(me.value?.grants ?? []).map((g) => g.scope)]);
  const sites = known.sitesOf[businessUnit.trim()] ?? [];
  return (
    <>
      <div class="field">
        <label for="grant-business-unit">Business unit</label>
        <span id="grant-business-unit-hint" class="hint">
          Empty for everything
        </span>
        <input
          id="grant-business-unit"
          list="known-business-units"
          aria-describedby="grant-business-unit-hint"
          value={businessUnit}
          onInput={(event) => onChange({ businessUnit: event.currentTarget.value })}
        />
        <datalist id="known-business-units">
          {known.businessUnits.map((unit) => (
            <option key={unit} value={unit} />
          ))}
        </datalist>
      </div>
      <div class="field">
        <label for="grant-site">Site</label>
        <span id="grant-site-hint" class="hint">
          Empty for the whole business unit
        </span>
        <input
          id="grant-site"
          list="known-sites"
          aria-describedby="grant-site-hint"
          value={site}
          disabled={!businessUnit.trim()}
          onInput={(event) => onChange({ site: event.currentTarget.value })}
        />
        <datalist id="known-sites">
          {sites.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
      </div>
    </>
  );
}

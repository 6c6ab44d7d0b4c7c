import { useId } from 'react';
import type { StatementEncoding } from '../../api/index.ts';
import { useI18n } from '../../i18n/index.ts';

type EncodingGroup =
  'unicode' | 'western' | 'central' | 'cyrillic' | 'greek' | 'turkish' | 'baltic' | 'japanese' | 'korean' | 'chinese';

/** Every encoding the server offers, by script (a Record, so that the compiler sees one missing). */
const GROUP_OF: Record<StatementEncoding, EncodingGroup> = {
  'utf-8': 'unicode',
  'utf-16le': 'unicode',
  'utf-16be': 'unicode',
  'windows-1252': 'western',
  'iso-8859-1': 'western',
  'iso-8859-15': 'western',
  'windows-1250': 'central',
  'iso-8859-2': 'central',
  'windows-1251': 'cyrillic',
  'koi8-r': 'cyrillic',
  'iso-8859-5': 'cyrillic',
  'windows-1253': 'greek',
  'iso-8859-7': 'greek',
  'windows-1254': 'turkish',
  'iso-8859-9': 'turkish',
  'windows-1257': 'baltic',
  shift_jis: 'japanese',
  'euc-jp': 'japanese',
  'euc-kr': 'korean',
  gb18030: 'chinese',
  big5: 'chinese',
};
const GROUPS: EncodingGroup[] = [...new Set(Object.values(GROUP_OF))];

/**
 * The encoding the file was read in (detected, or chosen before); choosing another reads the file
 * again in it, as a spreadsheet's CSV import does.
 */
export function EncodingSelect({
  encoding,
  busy,
  onEncoding,
}: {
  encoding: string;
  busy: boolean;
  onEncoding: (encoding: string) => void;
}) {
  const { t } = useI18n();
  const hintId = useId();
  const offered = encoding in GROUP_OF;
  return (
    <div className="encoding-choice">
      <label>
        {t('import.encoding')}
        <select value={encoding} disabled={busy} aria-describedby={hintId} onChange={(e) => onEncoding(e.target.value)}>
          {!offered && (
            <optgroup label={t('import.encodingGroups.detected')}>
              <option value={encoding}>{encoding.toUpperCase()}</option>
            </optgroup>
          )}
          {GROUPS.map((group) => (
            <optgroup key={group} label={t(`import.encodingGroups.${group}`)}>
              {Object.entries(GROUP_OF)
                .filter(([, g]) => g === group)
                .map(([name]) => (
                  <option key={name} value={name}>
                    {name.toUpperCase()}
                  </option>
                ))}
            </optgroup>
          ))}
        </select>
      </label>
      <p className="hint" id={hintId}>
        {t('import.encodingHint')}
      </p>
    </div>
  );
}

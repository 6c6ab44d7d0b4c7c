import type { MatchDto } from '../api/index.ts';
import { useI18n } from '../i18n/index.ts';
import { ProgressBar } from './progress-bar.tsx';

const PARTS = [
  { key: 'amount', weight: 40 },
  { key: 'date', weight: 25 },
  { key: 'description', weight: 20 },
  { key: 'business', weight: 10 },
  { key: 'history', weight: 5 },
] as const;

function tone(score: number): 'good' | 'warn' | 'bad' {
  return score >= 85 ? 'good' : score >= 60 ? 'warn' : 'bad';
}

/** The five parts of a match score (each 0..100) as bars, with their weights (CONTRACT §10). */
export function ScoreBars({ breakdown }: { breakdown: MatchDto['score_breakdown'] }) {
  const { t } = useI18n();
  return (
    <dl className="score-bars">
      {PARTS.map(({ key, weight }) => {
        const name = t(`score.${key}`);
        const value = breakdown[key];
        return (
          <div key={key} className="score-part">
            <dt>
              {name} <span className="muted">{weight}%</span>
            </dt>
            <dd>
              <ProgressBar
                value={value}
                label={t('score.partLabel', { part: name })}
                text={`${value} / 100`}
                tone={tone(value)}
              />
              <span className="score-value">{value}</span>
            </dd>
          </div>
        );
      })}
    </dl>
  );
}

export function scoreTone(score: number) {
  return tone(score);
}

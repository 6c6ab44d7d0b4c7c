import type { OccurrenceDto, RunResultDto, ScheduleDto, ScheduleInput } from '../../../server/contract/schedules.ts';
import { allPages, json, type Page } from './http.ts';

export type { OccurrenceDto, RunResultDto, ScheduleDto };
/** A schedule as sent: interval and auto_post may be left to their defaults. */
export type ScheduleBody = Omit<ScheduleInput, 'interval' | 'auto_post'> & { interval?: number; auto_post?: boolean };

export function allSchedules(): Promise<ScheduleDto[]> {
  return allPages<ScheduleDto>('/api/schedules');
}

export function createSchedule(input: ScheduleBody): Promise<ScheduleDto> {
  return json('POST', '/api/schedules', { json: input });
}

export function updateSchedule(id: string, input: ScheduleBody): Promise<ScheduleDto> {
  return json('PUT', `/api/schedules/${encodeURIComponent(id)}`, { json: input });
}

export function deleteSchedule(id: string): Promise<void> {
  return json('DELETE', `/api/schedules/${encodeURIComponent(id)}`);
}

export function skipOccurrence(id: string, date: string): Promise<void> {
  return json('POST', `/api/schedules/${encodeURIComponent(id)}/skip`, { json: { date } });
}

export function runSchedules(): Promise<RunResultDto> {
  return json('POST', '/api/schedules/run');
}

export function upcomingOccurrences(
  until: string,
  page = 1,
  perPage = 100,
): Promise<Page<OccurrenceDto> & { until: string }> {
  return json('GET', '/api/schedules/upcoming', { query: { until, page, per_page: perPage } });
}

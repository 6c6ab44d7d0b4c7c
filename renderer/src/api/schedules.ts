import { allPages, answer, api, type Answer, type Body, type Schemas } from './client.ts';

export type ScheduleDto = Schemas['Schedule'];
export type OccurrenceDto = Schemas['ScheduleOccurrence'];
export type RunResultDto = Answer<'/api/schedules/run', 'post'>;
/** A schedule as sent: interval and auto_post may be left to their defaults. */
export type ScheduleBody = Body<'/api/schedules', 'post'>;
export type UpcomingOccurrences = Answer<'/api/schedules/upcoming', 'get'>;

export function allSchedules(): Promise<ScheduleDto[]> {
  return allPages((page, per_page) => answer(api.GET('/api/schedules', { params: { query: { page, per_page } } })));
}

export function createSchedule(input: ScheduleBody): Promise<ScheduleDto> {
  return answer(api.POST('/api/schedules', { body: input }));
}

export function updateSchedule(id: string, input: Body<'/api/schedules/{id}', 'put'>): Promise<ScheduleDto> {
  return answer(api.PUT('/api/schedules/{id}', { params: { path: { id } }, body: input }));
}

export async function deleteSchedule(id: string): Promise<void> {
  await api.DELETE('/api/schedules/{id}', { params: { path: { id } } });
}

export async function skipOccurrence(id: string, date: string): Promise<void> {
  await api.POST('/api/schedules/{id}/skip', { params: { path: { id } }, body: { date } });
}

export function runSchedules(): Promise<RunResultDto> {
  return answer(api.POST('/api/schedules/run'));
}

export function upcomingOccurrences(until: string, page = 1, perPage = 100): Promise<UpcomingOccurrences> {
  return answer(api.GET('/api/schedules/upcoming', { params: { query: { until, page, per_page: perPage } } }));
}

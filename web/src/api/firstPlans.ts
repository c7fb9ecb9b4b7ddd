// The first plan list is asked for as soon as the app's code has loaded, before React's first render,
// so that the first render can already hold the rows (index.html's preload has usually brought the
// answer by then): the first screen is painted once, with its rows, not as an empty shell first.
import { api } from './client';
import type { PlanMetadata } from './types';

/** The first request while nobody has taken it. */
let inFlight: Promise<PlanMetadata[]> | null = null;
/** Its answer once it has come, until a later load replaces it. */
let arrived: PlanMetadata[] | null = null;

/** Starts the first GET /api/plans; the promise settles with it (never rejects: its loader reports). */
export function startFirstPlans(): Promise<void> {
  const request = api.plans();
  inFlight = request;
  return request.then(
    (plans) => {
      if (inFlight !== request) return;
      inFlight = null;
      arrived = plans;
    },
    () => undefined,
  );
}

/** The first plan list if it has come and no load has been made since: the app's first state. */
export function firstPlans(): PlanMetadata[] | null {
  return arrived;
}

/** Loads the plan list; while the first request is still on its way, the first load is that request. */
export function loadPlans(signal: AbortSignal): Promise<PlanMetadata[]> {
  const request = inFlight;
  inFlight = null;
  arrived = null;
  return request ?? api.plans(signal);
}

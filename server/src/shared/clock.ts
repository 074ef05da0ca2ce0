/** The one place the server reads the time, so tests can move it (the clock is the edge of the world). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export const isoNow = (clock: Clock): string => clock.now().toISOString();
export const unixNow = (clock: Clock): number => Math.floor(clock.now().getTime() / 1000);

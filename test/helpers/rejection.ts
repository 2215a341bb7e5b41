import { isKddError, type KddError } from '../../model/errors.js';

/** The typed error a promise rejects with; anything else (or no rejection) fails the test. */
export async function rejection(promise: Promise<unknown>): Promise<KddError> {
  try {
    await promise;
  } catch (error) {
    if (isKddError(error)) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

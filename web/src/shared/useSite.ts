import useSWR from 'swr';
import { api } from '../lib/api';
import { swrKeys } from '../lib/swrKeys';

/** This deployment's operator details and error-reporting switch; they change only on a restart. */
export function useSite() {
  return useSWR(swrKeys.site(), () => api.health.site(), { revalidateOnFocus: false, revalidateIfStale: false });
}

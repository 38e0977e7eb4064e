/** Only http(s) pages are ever opened from data the service sent: never javascript:, data: or the like. */
export function isOpenableUrl(value: string | null | undefined): value is string {
  if (!value) return false;
  try {
    const { protocol } = new URL(value);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

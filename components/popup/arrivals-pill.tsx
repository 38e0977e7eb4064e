import { tn } from '../../lib/i18n';

interface Props {
  count: number;
  onShow(): void;
}

/**
 * "N new" over the top of the list: it floats above the rows instead of pushing them down, so
 * nothing moves under the pointer until the person asks for the new notifications.
 */
export function ArrivalsPill({ count, onShow }: Props) {
  return (
    <div class="arrivals" aria-live="polite">
      {count > 0 && (
        <button type="button" class="solid arrivals-pill" onClick={onShow}>
          {tn('popup_arrived', count)}
        </button>
      )}
    </div>
  );
}

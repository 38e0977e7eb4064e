import { render } from 'preact';
import { OptionsPage } from '../../components/options/options-page';
import { t, uiLanguage } from '../../lib/i18n';
import '../../components/options/options.css';

document.documentElement.lang = uiLanguage();
document.title = t('options_title');
render(<OptionsPage />, document.getElementById('app') as HTMLElement);

interface ImportMetaEnv {
  readonly WXT_PRESET_API_BASE_URL?: string;
  readonly WXT_PRESET_SITE_ORIGIN?: string;
  readonly WXT_PRESET_TOKEN?: string;
}

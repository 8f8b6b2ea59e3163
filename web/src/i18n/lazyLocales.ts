/**
 * The loaders of the namespaces that load with their pages: a chunk of its own, so that their
 * list (a file name per namespace and language) stays out of the first screen's JavaScript.
 */
export const lazyLocales = import.meta.glob<Record<string, unknown>>(['../locales/*/*.json', '!../locales/*/{common,home,auth}.json'], {
  import: 'default',
});

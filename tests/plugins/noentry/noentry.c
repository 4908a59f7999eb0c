/* noentry: a shared object without carc_plugin_entry; carc must refuse it. */
int noentry_something(void);
int noentry_something(void) { return 42; }

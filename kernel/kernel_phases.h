/* kernel_phases.h - the base game's phases, registered into every rules. */
#ifndef CARC_KERNEL_PHASES_H
#define CARC_KERNEL_PHASES_H
struct carc_rules;
void kernel_phases_register(struct carc_rules *r);
int rules_define_enum(struct carc_rules *r, const char *key, const char *values,
                      const char *help, int owner);
int rules_define_int(struct carc_rules *r, const char *key, int def, int min, int max,
                     const char *help, int owner);
#endif

#ifndef WIRING_CYAML_SHIM_H
#define WIRING_CYAML_SHIM_H
#include <yaml.h>
#endif

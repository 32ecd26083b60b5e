#ifndef WIDGETD_CMOSQUITTO_SHIM_H
#define WIDGETD_CMOSQUITTO_SHIM_H
// libmosquitto's client API: the MQTT session behind `[remote]` in widgetd.conf.
#include <mosquitto.h>
#endif

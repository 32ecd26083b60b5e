#ifndef WIDGETD_CMOSQUITTO_H
#define WIDGETD_CMOSQUITTO_H
// libmosquitto's client API: the MQTT session behind `[remote]` in widgetd.conf. The functions
// widgetd calls are defined in MosquittoLoader.c, which opens the library on first use.
#include <mosquitto.h>
#endif

// The libmosquitto functions widgetd calls, each forwarding to the library opened on first use.
//
// Why not link it: libmosquitto brings libssl and libcrypto, whose start-up work keeps memory
// resident in every process of the package's one executable (the web host, widgetctl, each
// provider launch of the example bundle), while only a daemon with `[remote]` in widgetd.conf
// talks MQTT. Without the library, mosquitto_lib_init and mosquitto_new fail
// as libmosquitto does, and nothing else is reached (no session exists).
#include "CMosquitto.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#define LIBMOSQUITTO "libmosquitto.so.1"

#define MOSQUITTO_FUNCTIONS(X) \
    X(mosquitto_connack_string) X(mosquitto_connect) X(mosquitto_connect_callback_set) X(mosquitto_destroy) \
    X(mosquitto_disconnect) X(mosquitto_disconnect_callback_set) X(mosquitto_int_option) X(mosquitto_lib_init) \
    X(mosquitto_loop_forever) X(mosquitto_message_callback_set) X(mosquitto_new) X(mosquitto_publish) \
    X(mosquitto_reconnect_delay_set) X(mosquitto_socket) X(mosquitto_strerror) X(mosquitto_subscribe) \
    X(mosquitto_subscribe_callback_set) X(mosquitto_threaded_set) X(mosquitto_tls_set) X(mosquitto_user_data_set) \
    X(mosquitto_username_pw_set)

static struct {
#define FIELD(name) __typeof__(name) *name;
    MOSQUITTO_FUNCTIONS(FIELD)
#undef FIELD
} library;
static int loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *handle = dlopen(LIBMOSQUITTO, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) return;
#define RESOLVE(name) \
    library.name = (__typeof__(name) *)dlsym(handle, #name); \
    if (library.name == NULL) return;
    MOSQUITTO_FUNCTIONS(RESOLVE)
#undef RESOLVE
    loaded = 1;
}

static int available(void) {
    pthread_once(&once, load);
    return loaded;
}

// Reached only through a session, which exists only once the library loaded.
#define REAL(name) (available() ? library.name : (abort(), library.name))

int mosquitto_lib_init(void) {
    return available() ? library.mosquitto_lib_init() : MOSQ_ERR_NOT_SUPPORTED;
}

struct mosquitto *mosquitto_new(const char *id, bool clean_session, void *obj) {
    if (!available()) {
        errno = ENOSYS;
        return NULL;
    }
    return library.mosquitto_new(id, clean_session, obj);
}

const char *mosquitto_strerror(int mosq_errno) {
    return available() ? library.mosquitto_strerror(mosq_errno) : "libmosquitto (" LIBMOSQUITTO ") is not installed";
}

const char *mosquitto_connack_string(int connack_code) {
    return available() ? library.mosquitto_connack_string(connack_code) : "libmosquitto is not installed";
}

void mosquitto_destroy(struct mosquitto *mosq) { REAL(mosquitto_destroy)(mosq); }

int mosquitto_connect(struct mosquitto *mosq, const char *host, int port, int keepalive) {
    return REAL(mosquitto_connect)(mosq, host, port, keepalive);
}

int mosquitto_disconnect(struct mosquitto *mosq) { return REAL(mosquitto_disconnect)(mosq); }

int mosquitto_int_option(struct mosquitto *mosq, enum mosq_opt_t option, int value) {
    return REAL(mosquitto_int_option)(mosq, option, value);
}

int mosquitto_loop_forever(struct mosquitto *mosq, int timeout, int max_packets) {
    return REAL(mosquitto_loop_forever)(mosq, timeout, max_packets);
}

int mosquitto_publish(struct mosquitto *mosq, int *mid, const char *topic, int payloadlen, const void *payload, int qos,
                      bool retain) {
    return REAL(mosquitto_publish)(mosq, mid, topic, payloadlen, payload, qos, retain);
}

int mosquitto_reconnect_delay_set(struct mosquitto *mosq, unsigned int reconnect_delay, unsigned int reconnect_delay_max,
                                  bool reconnect_exponential_backoff) {
    return REAL(mosquitto_reconnect_delay_set)(mosq, reconnect_delay, reconnect_delay_max, reconnect_exponential_backoff);
}

int mosquitto_socket(struct mosquitto *mosq) { return REAL(mosquitto_socket)(mosq); }

int mosquitto_subscribe(struct mosquitto *mosq, int *mid, const char *sub, int qos) {
    return REAL(mosquitto_subscribe)(mosq, mid, sub, qos);
}

int mosquitto_threaded_set(struct mosquitto *mosq, bool threaded) { return REAL(mosquitto_threaded_set)(mosq, threaded); }

int mosquitto_tls_set(struct mosquitto *mosq, const char *cafile, const char *capath, const char *certfile, const char *keyfile,
                      int (*pw_callback)(char *buf, int size, int rwflag, void *userdata)) {
    return REAL(mosquitto_tls_set)(mosq, cafile, capath, certfile, keyfile, pw_callback);
}

void mosquitto_user_data_set(struct mosquitto *mosq, void *obj) { REAL(mosquitto_user_data_set)(mosq, obj); }

int mosquitto_username_pw_set(struct mosquitto *mosq, const char *username, const char *password) {
    return REAL(mosquitto_username_pw_set)(mosq, username, password);
}

void mosquitto_connect_callback_set(struct mosquitto *mosq, void (*on_connect)(struct mosquitto *, void *, int)) {
    REAL(mosquitto_connect_callback_set)(mosq, on_connect);
}

void mosquitto_disconnect_callback_set(struct mosquitto *mosq, void (*on_disconnect)(struct mosquitto *, void *, int)) {
    REAL(mosquitto_disconnect_callback_set)(mosq, on_disconnect);
}

void mosquitto_message_callback_set(struct mosquitto *mosq,
                                    void (*on_message)(struct mosquitto *, void *, const struct mosquitto_message *)) {
    REAL(mosquitto_message_callback_set)(mosq, on_message);
}

void mosquitto_subscribe_callback_set(struct mosquitto *mosq,
                                      void (*on_subscribe)(struct mosquitto *, void *, int, int, const int *)) {
    REAL(mosquitto_subscribe_callback_set)(mosq, on_subscribe);
}

/*
 * seccomp-exec: install a seccomp filter shaped like the one systemd builds from
 * widgetd.service, then exec a program (scripts/provider-sandbox builds and uses it).
 *
 *   seccomp-exec --allow FILE [--errno N] [--af-unix] [--restrict-namespaces]
 *                [--lock-personality] [--restrict-suid-sgid] -- PROGRAM [ARGS...]
 *
 * --allow FILE: the system calls allowed, one name a line (SystemCallFilter= after its
 *   groups are expanded and the ~ list removed); every other call fails with --errno
 *   (SystemCallErrorNumber=, default EPERM). Names this architecture lacks are skipped.
 * --af-unix: RestrictAddressFamilies=AF_UNIX: socket() of any other family fails with
 *   EAFNOSUPPORT, as under systemd.
 * --restrict-namespaces: RestrictNamespaces=yes: clone/unshare with a CLONE_NEW* flag and
 *   setns fail with EPERM; clone3 fails with ENOSYS (so libc falls back to clone).
 * --lock-personality: LockPersonality=yes: personality() only for PER_LINUX or a query.
 * --restrict-suid-sgid: RestrictSUIDSGID=yes: chmod/fchmod/fchmodat setting S_ISUID or
 *   S_ISGID fail with EPERM (systemd also checks creation modes of open; not done here).
 * Only the native architecture is allowed (SystemCallArchitectures=native).
 * The caller must already have set no_new_privs (setpriv --no-new-privs).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/personality.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

static void die(const char *what, int rc) {
    fprintf(stderr, "seccomp-exec: %s: %s\n", what, strerror(rc < 0 ? -rc : rc));
    exit(111);
}

static int contains(char **names, int count, const char *name) {
    for (int i = 0; i < count; i++)
        if (strcmp(names[i], name) == 0) return 1;
    return 0;
}

int main(int argc, char **argv) {
    const char *allow = NULL;
    int error_number = EPERM, af_unix = 0, namespaces = 0, personality_lock = 0, suid = 0;
    int i = 1;
    for (; i < argc; i++) {
        if (strcmp(argv[i], "--allow") == 0 && i + 1 < argc) allow = argv[++i];
        else if (strcmp(argv[i], "--errno") == 0 && i + 1 < argc) error_number = atoi(argv[++i]);
        else if (strcmp(argv[i], "--af-unix") == 0) af_unix = 1;
        else if (strcmp(argv[i], "--restrict-namespaces") == 0) namespaces = 1;
        else if (strcmp(argv[i], "--lock-personality") == 0) personality_lock = 1;
        else if (strcmp(argv[i], "--restrict-suid-sgid") == 0) suid = 1;
        else if (strcmp(argv[i], "--") == 0) { i++; break; }
        else { fprintf(stderr, "seccomp-exec: unknown argument %s\n", argv[i]); return 2; }
    }
    if (!allow || i >= argc) { fprintf(stderr, "usage: seccomp-exec --allow FILE [...] -- PROGRAM [ARGS...]\n"); return 2; }

    FILE *file = fopen(allow, "r");
    if (!file) die(allow, errno);
    char *names[4096];
    int count = 0;
    char line[256];
    while (count < 4096 && fgets(line, sizeof line, file)) {
        line[strcspn(line, " \t\r\n")] = 0;
        if (line[0]) names[count++] = strdup(line);
    }
    fclose(file);

    scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ERRNO(error_number));
    if (!ctx) die("seccomp_init", ENOMEM);
    /* Calls of a foreign architecture (e.g. int 0x80 on x86_64) are refused too. */
    int rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_ERRNO(error_number));
    if (rc < 0) die("seccomp_attr_set", rc);

    /* Calls handled by a conditional rule below instead of a plain allow. */
    const char *conditional[] = {"socket", "clone", "clone3", "unshare", "setns", "personality", "chmod", "fchmod", "fchmodat"};
    int allowed = 0, unknown = 0;
    for (int n = 0; n < count; n++) {
        int skip = 0;
        for (size_t c = 0; c < sizeof conditional / sizeof *conditional; c++)
            if (strcmp(names[n], conditional[c]) == 0) skip = 1;
        if (skip) continue;
        int nr = seccomp_syscall_resolve_name(names[n]);
        if (nr == __NR_SCMP_ERROR || nr < 0) { unknown++; continue; }
        rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0);
        if (rc < 0) { unknown++; continue; }
        allowed++;
    }

#define ALLOWED(name) contains(names, count, name)
    if (ALLOWED("socket")) {
        if (af_unix) {
            rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(socket), 1, SCMP_A0(SCMP_CMP_EQ, AF_UNIX));
            if (rc < 0) die("rule socket", rc);
            rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socket), 1, SCMP_A0(SCMP_CMP_NE, AF_UNIX));
            if (rc < 0) die("rule socket", rc);
        } else if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(socket), 0)) < 0) die("rule socket", rc);
    }
    const scmp_datum_t ns = CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET;
    if (ALLOWED("clone")) {
        rc = namespaces ? seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, ns, 0))
                        : seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(clone), 0);
        if (rc < 0) die("rule clone", rc);
    }
    if (ALLOWED("clone3")) {
        rc = seccomp_rule_add(ctx, namespaces ? SCMP_ACT_ERRNO(ENOSYS) : SCMP_ACT_ALLOW, SCMP_SYS(clone3), 0);
        if (rc < 0) die("rule clone3", rc);
    }
    if (ALLOWED("unshare")) {
        rc = namespaces ? seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(unshare), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, ns, 0))
                        : seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(unshare), 0);
        if (rc < 0) die("rule unshare", rc);
    }
    if (ALLOWED("setns") && !namespaces && (rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(setns), 0)) < 0)
        die("rule setns", rc);
    if (ALLOWED("personality")) {
        if (personality_lock) {
            rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(personality), 1, SCMP_A0(SCMP_CMP_EQ, PER_LINUX));
            if (rc >= 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(personality), 1, SCMP_A0(SCMP_CMP_EQ, 0xffffffff));
        } else rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(personality), 0);
        if (rc < 0) die("rule personality", rc);
    }
    const scmp_datum_t sbits = S_ISUID | S_ISGID;
    struct { const char *name; int nr; unsigned arg; } modes[] = {
        {"chmod", SCMP_SYS(chmod), 1}, {"fchmod", SCMP_SYS(fchmod), 1}, {"fchmodat", SCMP_SYS(fchmodat), 2}};
    for (size_t m = 0; m < sizeof modes / sizeof *modes; m++) {
        if (!ALLOWED(modes[m].name)) continue;
        rc = suid ? seccomp_rule_add(ctx, SCMP_ACT_ALLOW, modes[m].nr, 1, SCMP_CMP(modes[m].arg, SCMP_CMP_MASKED_EQ, sbits, 0))
                  : seccomp_rule_add(ctx, SCMP_ACT_ALLOW, modes[m].nr, 0);
        if (rc < 0) die(modes[m].name, rc);
    }

    rc = seccomp_load(ctx);
    if (rc < 0) die("seccomp_load", rc);
    seccomp_release(ctx);
    if (getenv("SECCOMP_EXEC_VERBOSE"))
        fprintf(stderr, "seccomp-exec: %d calls allowed, %d names not on this architecture\n", allowed, unknown);
    execvp(argv[i], argv + i);
    die(argv[i], errno);
}

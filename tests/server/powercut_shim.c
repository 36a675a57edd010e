/* A power-cut recorder for the crash tests (tests/server/powercut.py), loaded with
 * LD_PRELOAD into `pasyans serve` and everything it starts.
 *
 * Every write, truncation, unlink and fsync of a file under PCUT_TRACK (a real path; the
 * SQLite shared-memory index "-shm" excepted) is appended, data included, to the journal
 * PCUT_JOURNAL, one record per write(2) on an O_APPEND descriptor (the records of all
 * processes in the order they happened). From it the test rebuilds the disk a power cut
 * would leave: only what an fsync that succeeded covered.
 *
 * PCUT_FAIL names a trigger file: while it exists, the next fsync of a tracked file (in
 * any process: the first to unlink it) fails with EIO without syncing, as Linux reports a
 * failed writeback; the journal says so, and the rebuild drops the writes it covered
 * (Linux marks those pages clean: a later fsync does not write them). With PCUT_FAIL_SUFFIX,
 * only an fsync of a file whose path ends so (the database file, say, not its log). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

enum { K_WRITE = 1, K_SYNC_BEGIN = 2, K_SYNC_OK = 3, K_SYNC_FAIL = 4, K_TRUNCATE = 5, K_UNLINK = 6 };

struct record {
    uint32_t kind;
    uint32_t path_len;
    int64_t offset; /* write: offset; truncate: size; sync: the sync's id */
    int64_t len;    /* write: bytes of data after the path */
};

static int journal = -1;
static const char *track;
static size_t track_len;
static const char *fail_file;
static const char *fail_suffix;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int64_t sync_ids;

static void setup(void) {
    const char *j = getenv("PCUT_JOURNAL");
    track = getenv("PCUT_TRACK");
    fail_file = getenv("PCUT_FAIL");
    fail_suffix = getenv("PCUT_FAIL_SUFFIX");
    if (j && track) {
        journal = (int)syscall(SYS_open, j, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
        track_len = strlen(track);
    }
}

/* The real path of fd when it is tracked (0), else -1. */
static int tracked_fd(int fd, char *out) {
    pthread_once(&once, setup);
    if (journal < 0 || fd < 0 || fd == journal) return -1;
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, out, PATH_MAX - 1);
    if (n <= 0) return -1;
    out[n] = 0;
    if ((size_t)n <= track_len || strncmp(out, track, track_len) != 0 || out[track_len] != '/')
        return -1;
    if (n > 4 && strcmp(out + n - 4, "-shm") == 0) return -1;
    return 0;
}

static void emit(uint32_t kind, const char *path, int64_t offset, const void *data, int64_t len) {
    size_t plen = strlen(path);
    size_t total = sizeof(struct record) + plen + (size_t)(len > 0 ? len : 0);
    char *buf = malloc(total);
    if (!buf) abort();
    struct record r = {kind, (uint32_t)plen, offset, len > 0 ? len : 0};
    memcpy(buf, &r, sizeof r);
    memcpy(buf + sizeof r, path, plen);
    if (len > 0) memcpy(buf + sizeof r + plen, data, (size_t)len);
    size_t done = 0;
    while (done < total) {
        ssize_t w = syscall(SYS_write, journal, buf + done, total - done);
        if (w <= 0) abort(); /* a journal that cannot be kept makes the test meaningless */
        done += (size_t)w;
    }
    free(buf);
}

#define REAL(name) static __typeof__(name) *real_##name; \
    if (!real_##name) real_##name = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

ssize_t pwrite64(int fd, const void *buf, size_t count, off_t offset) {
    REAL(pwrite64);
    ssize_t n = real_pwrite64(fd, buf, count, offset);
    char path[PATH_MAX];
    if (n > 0 && tracked_fd(fd, path) == 0) emit(K_WRITE, path, offset, buf, n);
    return n;
}

ssize_t pwrite(int fd, const void *buf, size_t count, off_t offset) {
    REAL(pwrite);
    ssize_t n = real_pwrite(fd, buf, count, offset);
    char path[PATH_MAX];
    if (n > 0 && tracked_fd(fd, path) == 0) emit(K_WRITE, path, offset, buf, n);
    return n;
}

ssize_t write(int fd, const void *buf, size_t count) {
    REAL(write);
    char path[PATH_MAX];
    if (tracked_fd(fd, path) != 0) return real_write(fd, buf, count);
    off_t at = lseek(fd, 0, SEEK_CUR);
    ssize_t n = real_write(fd, buf, count);
    if (n > 0) emit(K_WRITE, path, at, buf, n);
    return n;
}

static int synced(int fd, int data_only) {
    char path[PATH_MAX];
    static int (*real_fsync)(int);
    static int (*real_fdatasync)(int);
    if (!real_fsync) real_fsync = (int (*)(int))dlsym(RTLD_NEXT, "fsync");
    if (!real_fdatasync) real_fdatasync = (int (*)(int))dlsym(RTLD_NEXT, "fdatasync");
    if (tracked_fd(fd, path) != 0) return data_only ? real_fdatasync(fd) : real_fsync(fd);
    int64_t id = ((int64_t)getpid() << 32) | (int64_t)__atomic_add_fetch(&sync_ids, 1, __ATOMIC_SEQ_CST);
    emit(K_SYNC_BEGIN, path, id, NULL, 0);
    size_t plen = strlen(path), slen = fail_suffix ? strlen(fail_suffix) : 0;
    int may_fail = !fail_suffix || (plen >= slen && strcmp(path + plen - slen, fail_suffix) == 0);
    if (fail_file && may_fail && syscall(SYS_unlink, fail_file) == 0) {
        emit(K_SYNC_FAIL, path, id, NULL, 0);
        errno = EIO;
        return -1;
    }
    int rc = data_only ? real_fdatasync(fd) : real_fsync(fd);
    emit(rc == 0 ? K_SYNC_OK : K_SYNC_FAIL, path, id, NULL, 0);
    return rc;
}

int fsync(int fd) { return synced(fd, 0); }
int fdatasync(int fd) { return synced(fd, 1); }

int ftruncate64(int fd, off_t length) {
    REAL(ftruncate64);
    int rc = real_ftruncate64(fd, length);
    char path[PATH_MAX];
    if (rc == 0 && tracked_fd(fd, path) == 0) emit(K_TRUNCATE, path, length, NULL, 0);
    return rc;
}

int ftruncate(int fd, off_t length) {
    REAL(ftruncate);
    int rc = real_ftruncate(fd, length);
    char path[PATH_MAX];
    if (rc == 0 && tracked_fd(fd, path) == 0) emit(K_TRUNCATE, path, length, NULL, 0);
    return rc;
}

int unlink(const char *name) {
    REAL(unlink);
    pthread_once(&once, setup);
    char path[PATH_MAX];
    int known = journal >= 0 && realpath(name, path) != NULL &&
                strncmp(path, track, track_len) == 0 && path[track_len] == '/';
    int rc = real_unlink(name);
    if (rc == 0 && known) emit(K_UNLINK, path, 0, NULL, 0);
    return rc;
}

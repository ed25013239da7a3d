package io.watchgate.objects;

import java.util.concurrent.ThreadLocalRandom;

/** Names for {@code metadata.generateName}: the prefix cut to 58 characters, then 5 random ones, as Kubernetes does. */
final class NameGenerator {

    private static final String ALPHABET = "bcdfghjklmnpqrstvwxz2456789";
    private static final int RANDOM_LENGTH = 5;
    private static final int MAX_PREFIX = 63 - RANDOM_LENGTH;

    private NameGenerator() {
    }

    static String generate(String prefix) {
        StringBuilder name = new StringBuilder(prefix.length() > MAX_PREFIX ? prefix.substring(0, MAX_PREFIX) : prefix);
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int i = 0; i < RANDOM_LENGTH; i++) {
            name.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
        }
        return name.toString();
    }
}

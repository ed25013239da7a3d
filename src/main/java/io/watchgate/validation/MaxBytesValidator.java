package io.watchgate.validation;

import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Checks {@link MaxBytes} on a map (keys plus values) or on a precomputed size. */
public final class MaxBytesValidator {

    private MaxBytesValidator() {
    }

    public static final class ForMap implements ConstraintValidator<MaxBytes, Map<String, String>> {
        private long limit;

        @Override
        public void initialize(MaxBytes annotation) {
            limit = annotation.value();
        }

        @Override
        public boolean isValid(Map<String, String> map, ConstraintValidatorContext context) {
            if (map == null) {
                return true;
            }
            long total = 0;
            for (Map.Entry<String, String> entry : map.entrySet()) {
                total += entry.getKey().getBytes(StandardCharsets.UTF_8).length
                        + entry.getValue().getBytes(StandardCharsets.UTF_8).length;
            }
            return total <= limit;
        }
    }

    public static final class ForNumber implements ConstraintValidator<MaxBytes, Number> {
        private long limit;

        @Override
        public void initialize(MaxBytes annotation) {
            limit = annotation.value();
        }

        @Override
        public boolean isValid(Number size, ConstraintValidatorContext context) {
            return size == null || size.longValue() <= limit;
        }
    }
}

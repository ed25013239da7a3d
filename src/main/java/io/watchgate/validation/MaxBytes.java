package io.watchgate.validation;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/**
 * A size limit in bytes: on a map, of all its keys and values together (UTF-8); on a number, of its value.
 * Reported as Kubernetes' FieldValueTooLong.
 */
@Target(FIELD)
@Retention(RUNTIME)
@Constraint(validatedBy = { MaxBytesValidator.ForMap.class, MaxBytesValidator.ForNumber.class })
public @interface MaxBytes {

    long value();

    /** The field path to report instead of the annotated property's own, when Kubernetes names another. */
    String field() default "";

    String message() default "too long";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};
}

package io.watchgate.validation;

import static java.lang.annotation.ElementType.FIELD;
import static java.lang.annotation.ElementType.TYPE_USE;
import static java.lang.annotation.RetentionPolicy.RUNTIME;

import jakarta.validation.Constraint;
import jakarta.validation.Payload;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.Target;

/** The annotated text (a name, a label key or value, a data key) must follow a Kubernetes syntax. */
@Target({ FIELD, TYPE_USE })
@Retention(RUNTIME)
@Constraint(validatedBy = IdentifierValidator.class)
@Repeatable(Identifier.List.class)
public @interface Identifier {

    IdentifierSyntax value();

    /** When set on a map key, the key is named in the field path, as in {@code data[key]}. */
    boolean keyInPath() default false;

    String message() default "invalid";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    @Target({ FIELD, TYPE_USE })
    @Retention(RUNTIME)
    @interface List {
        Identifier[] value();
    }
}
